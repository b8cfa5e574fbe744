package diagnostics

import "fmt"

// ImportHint is the way out of an error that refuses to create an object the
// service already has (id): import that object into the resource instead.
// It shows an import block on several lines (HCL allows one argument in a
// one-line block, so `import { to = x, id = "y" }` does not parse) and the
// terraform import command. The provider never learns the resource's
// address (Terraform does not send it), but Terraform prints it above the
// error ("with service_x.name,"): NAME stands for it, a valid HCL name, so the
// block parses as it is copied and only NAME needs replacing.
func ImportHint(resourceType, id string) string {
	return fmt.Sprintf("To manage the existing object with this resource, import it: add this block to the "+
		"configuration and apply, with NAME replaced by this resource's name (Terraform prints its address above, "+
		"in the line \"with %[1]s.NAME\"; inside a module, use that whole address):\n\n"+
		"  import {\n"+
		"    to = %[1]s.NAME\n"+
		"    id = %[2]q\n"+
		"  }\n\n"+
		"or run: terraform import %[1]s.NAME %[2]s", resourceType, id)
}
