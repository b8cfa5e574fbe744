# Connected accounts are imported by their id (ca_...), for example an account
# the user connected through your application's own OAuth flow.
import {
  to = service_connected_account.github
  id = "ca_1a2b3c4d5e6f"
}
