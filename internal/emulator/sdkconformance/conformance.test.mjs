// SDK conformance for @composio/core 0.5.3 (calls /api/v3): drives the service emulator with the
// SDK pinned in package.json / package-lock.json of this folder. The tests themselves are in
// shared/suite.mjs (shared with core-0.21/conformance.test.mjs); this entry imports the SDK
// installed here and passes it in with the 0.5.3 quirks.
//
// Run by conformance_test.go (`make test`); can also be run by hand against a running emulator:
//
//   SDKC_BASE_URL=http://127.0.0.1:8080 SDKC_API_KEY=emulator-key node --test-reporter=spec conformance.test.mjs
//
// Environment: see shared/suite.mjs (SDKC_BASE_URL, SDKC_API_KEY, SDKC_WEBHOOK_SECRET,
// SDKC_CAPTURE_URL, SDKC_GO_VECTORS, SDKC_NODE_VECTORS).

import * as sdk from '@composio/core';

import { conformanceSuite } from './shared/suite.mjs';

conformanceSuite(sdk, {
  // authConfigs.get maps `uuid`.
  authConfigUuid: true,
  // SDK 0.5.3 bug: getToolkitBySlug tests `instanceof` against the *openai* package's APIError,
  // so a 404 surfaces as ComposioToolkitFetchError instead of ComposioToolkitNotFoundError.
  // Either class is accepted; the wrapped API error must be a 404.
  unknownToolkitErrors: [sdk.ComposioToolkitNotFoundError, sdk.ComposioToolkitFetchError],
  // triggers.verifyWebhook returns / throws synchronously.
  verifyWebhookAsync: false,
  // A connected-account `state` the SDK cannot parse is only warned about; it is still a deviation.
  isSdkWarningError: (line) => line.includes('Unsupported auth scheme in connected account state'),
});
