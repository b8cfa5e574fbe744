// SDK conformance suite shared by both pinned @composio/core versions: the entry scripts
// ../conformance.test.mjs (0.5.3, /api/v3) and ../core-0.21/conformance.test.mjs (0.21.0,
// /api/v3.1) each import the SDK installed in their own folder (Node resolves the bare
// `@composio/core` specifier from the importing file, so this module never imports it) and
// call conformanceSuite(sdk, quirks), which registers the node:test cases below.
//
// Environment (read when the suite is registered):
//   SDKC_BASE_URL        emulator origin (required)
//   SDKC_API_KEY         project API key (required)
//   SDKC_WEBHOOK_SECRET  secret the emulator signs webhooks with (webhook tests are skipped without it)
//   SDKC_CAPTURE_URL     Go-side receiver; GET <url>/captured?trigger_id=ID returns the deliveries it saw
//   SDKC_GO_VECTORS      JSON file of signatures produced by Go's webhooktest.SignWebhook (SDK must accept/reject)
//   SDKC_NODE_VECTORS    output JSON file of signatures produced here, for Go's webhooktest.VerifyWebhook
//
// SDK options: {disableVersionCheck: true, allowTracking: false} plus env NODE_ENV=test and
// TELEMETRY_DISABLED=true (set by the Go test) keep the SDK off registry.npmjs.org and
// telemetry.composio.dev, which are unreachable offline and cannot be pointed at the emulator.
//
// Every SDK call goes through `op()`, which fails the test when the SDK logged an error while
// handling the response: the SDK validates responses with zod but only *logs* a mismatch, so
// a silent log line is the only trace of an emulator response that deviates from the SDK schema.
//
// `quirks` holds what differs between the SDK versions (SDK changes, not emulator deviations):
//   authConfigUuid         authConfigs.get maps `uuid` (it must then be a string)
//   unknownToolkitErrors   error classes toolkits.get(unknown slug) may raise (wrapping a 404)
//   verifyWebhookAsync     triggers.verifyWebhook returns a Promise (failures reject) instead of
//                          returning / throwing synchronously
//   isSdkWarningError      (line) => true when a console.warn line from the SDK is a deviation

import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';

// `sign` mirrors the SDK's verifyWebhookSignature: HMAC-SHA256 keyed with the secret's UTF-8
// bytes over "<id>.<timestamp>.<body>", base64.
function sign(secret, id, timestamp, body) {
  return crypto.createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64');
}

/**
 * Registers the shared conformance tests.
 * @param {object} sdk the entry script's `import * as sdk from '@composio/core'`
 * @param {{authConfigUuid: boolean, unknownToolkitErrors: Function[], verifyWebhookAsync: boolean,
 *   isSdkWarningError: (line: string) => boolean}} quirks
 * @returns helpers for version-specific tests registered after these.
 */
export function conformanceSuite(sdk, quirks) {
  const {
    Composio,
    AuthScheme,
    ComposioConnectedAccountNotFoundError,
    ComposioMultipleConnectedAccountsError,
    ComposioTriggerTypeNotFoundError,
    ComposioWebhookSignatureVerificationError,
    ConnectionRequestTimeoutError,
  } = sdk;
  for (const [name, v] of Object.entries({
    Composio, ComposioConnectedAccountNotFoundError, ComposioMultipleConnectedAccountsError,
    ComposioTriggerTypeNotFoundError, ComposioWebhookSignatureVerificationError, ConnectionRequestTimeoutError,
  })) {
    assert.equal(typeof v, 'function', `@composio/core exports ${name}`);
  }
  assert.ok(AuthScheme, '@composio/core exports AuthScheme');
  assert.equal(typeof quirks.authConfigUuid, 'boolean', 'quirks.authConfigUuid');
  assert.ok(quirks.unknownToolkitErrors?.length > 0, 'quirks.unknownToolkitErrors');
  for (const cls of quirks.unknownToolkitErrors) assert.equal(typeof cls, 'function', 'quirks.unknownToolkitErrors');
  assert.equal(typeof quirks.verifyWebhookAsync, 'boolean', 'quirks.verifyWebhookAsync');
  assert.equal(typeof quirks.isSdkWarningError, 'function', 'quirks.isSdkWarningError');

  const BASE_URL = process.env.SDKC_BASE_URL;
  const API_KEY = process.env.SDKC_API_KEY;
  const WEBHOOK_SECRET = process.env.SDKC_WEBHOOK_SECRET ?? '';
  const CAPTURE_URL = process.env.SDKC_CAPTURE_URL ?? '';
  const GO_VECTORS = process.env.SDKC_GO_VECTORS ?? '';
  const NODE_VECTORS = process.env.SDKC_NODE_VECTORS ?? '';

  if (!BASE_URL || !API_KEY) {
    console.error('SDKC_BASE_URL and SDKC_API_KEY must be set');
    process.exit(2);
  }

  // -------------------------------------------------------------------------------------------
  // SDK log capture: the SDK's logger writes through the global console object.
  const sdkErrors = [];
  const allWarns = [];
  const origError = console.error.bind(console);
  const origWarn = console.warn.bind(console);
  console.error = (...args) => {
    sdkErrors.push(args.map(String).join(' '));
    origError(...args);
  };
  console.warn = (...args) => {
    const line = args.map(String).join(' ');
    // Response-shape problems the SDK only warns about are still deviations.
    if (quirks.isSdkWarningError(line)) sdkErrors.push(line);
    allWarns.push(line);
    origWarn(...args);
  };

  /** Runs one SDK operation and asserts the SDK did not log a response-validation error. */
  async function op(name, fn) {
    const mark = sdkErrors.length;
    const result = await fn();
    const logged = sdkErrors.slice(mark);
    assert.deepEqual(logged, [], `${name}: SDK logged errors while handling the emulator response:\n${logged.join('\n')}`);
    return result;
  }

  /** Runs an SDK operation that must fail; returns the error. */
  async function opRejects(name, fn, check) {
    let err;
    try {
      await fn();
    } catch (e) {
      err = e;
    }
    assert.ok(err, `${name}: expected an error, got success`);
    if (check) check(err);
    return err;
  }

  const statusOf = (err) => err?.status ?? err?.cause?.status;

  const composio = new Composio({
    apiKey: API_KEY,
    baseURL: BASE_URL,
    disableVersionCheck: true, // would GET registry.npmjs.org
    allowTracking: false, // would POST to telemetry.composio.dev
  });

  async function control(method, path, body) {
    const res = await fetch(new URL(path, BASE_URL), {
      method,
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path}: HTTP ${res.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  }

  /** Creates a managed github auth config and an ACTIVE connected account of user on it. */
  async function activeGithubAccount(user) {
    const ac = await op('authConfigs.create', () =>
      composio.authConfigs.create('github', { type: 'use_composio_managed_auth' }),
    );
    const req = await op('initiate(github)', () => composio.connectedAccounts.initiate(user, ac.id));
    await control('POST', `/_emulator/connected_accounts/${req.id}/complete`, {});
    return { ac, accountId: req.id };
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const run = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const uid = (s) => `sdkc-${s}-${run}`;

  // triggers.verifyWebhook, sync or async per quirks.verifyWebhookAsync: a synchronous SDK must
  // return the result itself (not a Promise); await the return value either way.
  function verifyWebhook(p) {
    const res = composio.triggers.verifyWebhook(p);
    if (!quirks.verifyWebhookAsync) assert.ok(!(res instanceof Promise), 'verifyWebhook returned a Promise');
    return res;
  }

  // verifyWebhook(p) must fail with ComposioWebhookSignatureVerificationError (message matching
  // re, if given): a synchronous SDK throws, an async one returns a rejected Promise.
  async function verifyWebhookRejects(name, p, re) {
    const check = (err) => {
      assert.ok(err instanceof ComposioWebhookSignatureVerificationError, `${name}: ${err.name}: ${err.message}`);
      if (re) assert.match(err.message, re, name);
      return true;
    };
    if (quirks.verifyWebhookAsync) await assert.rejects(() => composio.triggers.verifyWebhook(p), check, name);
    else assert.throws(() => composio.triggers.verifyWebhook(p), check, name);
  }

  // ---------------------------------------------------------------------------------------------
  describe('transport', () => {
    test('a wrong API key gets 401', async () => {
      const other = new Composio({ apiKey: 'not-a-key', baseURL: BASE_URL, disableVersionCheck: true, allowTracking: false });
      await opRejects('authConfigs.list(wrong key)', () => other.authConfigs.list(), (err) =>
        assert.equal(statusOf(err), 401, `${err.name}: ${err.message}`),
      );
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('toolkits', () => {
    test('get(slug)', async () => {
      const tk = await op('toolkits.get(github)', () => composio.toolkits.get('github'));
      assert.equal(tk.slug, 'github');
      assert.equal(typeof tk.name, 'string');
      assert.equal(typeof tk.isLocalToolkit, 'boolean');
      assert.ok(tk.composioManagedAuthSchemes?.includes('OAUTH2'), 'github has service-managed OAUTH2');
      assert.ok(tk.authConfigDetails?.some((d) => d.mode === 'OAUTH2'));
      assert.ok(tk.meta.categories?.some((c) => c.slug === 'developer-tools'), JSON.stringify(tk.meta.categories));
      assert.ok(tk.meta.availableVersions?.includes('20250901_00'), JSON.stringify(tk.meta.availableVersions));
      assert.ok(tk.meta.availableVersions?.includes('20251015_00'));
    });

    test('get(unknown slug) -> 404', async () => {
      // quirks.unknownToolkitErrors: the error classes this SDK version may raise (see the entry
      // script); the wrapped API error must be a 404.
      await opRejects('toolkits.get(nope)', () => composio.toolkits.get('no_such_toolkit_xyz'), (err) => {
        assert.ok(quirks.unknownToolkitErrors.some((cls) => err instanceof cls), `${err.name}: ${err.message}`);
        assert.equal(statusOf(err), 404, `cause: ${err.cause?.message}`);
      });
    });

    test('get(list query)', async () => {
      const all = await op('toolkits.get({})', () => composio.toolkits.get({}));
      assert.ok(Array.isArray(all));
      assert.ok(all.length >= 12, `expected >= 12 toolkits, got ${all.length}`);
      for (const slug of ['github', 'slack', 'stripe', 'linear', 'jira']) {
        assert.ok(all.some((t) => t.slug === slug), `toolkit list lacks ${slug}`);
      }
      const finance = await op('toolkits.get({category})', () => composio.toolkits.get({ category: 'finance' }));
      assert.ok(finance.some((t) => t.slug === 'stripe'), 'finance lists stripe');
      assert.ok(!finance.some((t) => t.slug === 'github'), 'finance does not list github');
      for (const t of finance) assert.ok(t.meta.categories?.some((c) => c.slug === 'finance'), t.slug);
      const limited = await op('toolkits.get({limit})', () => composio.toolkits.get({ limit: 3 }));
      assert.equal(limited.length, 3);
    });

    test('listCategories', async () => {
      const cats = await op('toolkits.listCategories', () => composio.toolkits.listCategories());
      assert.ok(Array.isArray(cats.items));
      assert.ok(cats.items.length >= 6, `expected >= 6 categories, got ${cats.items.length}`);
      const ids = cats.items.map((c) => c.id);
      for (const id of ['developer-tools', 'finance', 'productivity', 'communication']) {
        assert.ok(ids.includes(id), `categories lack ${id}: ${ids}`);
      }
      assert.equal(typeof cats.totalPages, 'number');
    });

    test('getAuthConfigCreationFields', async () => {
      const fields = await op('getAuthConfigCreationFields(github, OAUTH2)', () =>
        composio.toolkits.getAuthConfigCreationFields('github', 'OAUTH2'),
      );
      const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
      assert.equal(byName.client_id?.required, true, JSON.stringify(fields));
      assert.equal(byName.client_secret?.required, true);
      assert.equal(byName.scopes?.required, false);
      for (const f of fields) {
        assert.equal(typeof f.displayName, 'string', `displayName of ${f.name}`);
        assert.equal(typeof f.type, 'string');
        assert.equal(typeof f.description, 'string');
      }
      const req = await op('getAuthConfigCreationFields(requiredOnly)', () =>
        composio.toolkits.getAuthConfigCreationFields('github', 'OAUTH2', { requiredOnly: true }),
      );
      assert.deepEqual(req.map((f) => f.name).sort(), ['client_id', 'client_secret']);
    });

    test('getConnectedAccountInitiationFields', async () => {
      const apiKey = await op('getConnectedAccountInitiationFields(stripe, API_KEY)', () =>
        composio.toolkits.getConnectedAccountInitiationFields('stripe', 'API_KEY'),
      );
      assert.ok(apiKey.some((f) => f.name === 'api_key' && f.required === true), JSON.stringify(apiKey));
      const basic = await op('getConnectedAccountInitiationFields(jira, BASIC)', () =>
        composio.toolkits.getConnectedAccountInitiationFields('jira', 'BASIC', { requiredOnly: true }),
      );
      const names = basic.map((f) => f.name);
      assert.ok(names.includes('username') && names.includes('password'), JSON.stringify(names));
      const bearer = await op('getConnectedAccountInitiationFields(slack, BEARER_TOKEN)', () =>
        composio.toolkits.getConnectedAccountInitiationFields('slack', 'BEARER_TOKEN', { requiredOnly: true }),
      );
      assert.deepEqual(bearer.map((f) => f.name), ['token']);
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('authConfigs', () => {
    let managed; // github, service-managed OAUTH2
    let custom; // linear, custom OAUTH2

    test('create (managed)', async () => {
      managed = await op('authConfigs.create(managed)', () =>
        composio.authConfigs.create('github', { type: 'use_composio_managed_auth', name: uid('gh-managed') }),
      );
      assert.match(managed.id, /^ac_/);
      assert.equal(managed.isComposioManaged, true);
      assert.equal(managed.toolkit, 'github');
      assert.equal(managed.authScheme, 'OAUTH2');
    });

    test('create (managed, default options)', async () => {
      const ac = await op('authConfigs.create(github)', () => composio.authConfigs.create('github'));
      assert.match(ac.id, /^ac_/);
      assert.equal(ac.isComposioManaged, true);
      await op('authConfigs.delete', () => composio.authConfigs.delete(ac.id));
    });

    test('create (managed) on a toolkit without service-managed auth -> 400', async () => {
      await opRejects('authConfigs.create(stripe managed)', () =>
        composio.authConfigs.create('stripe', { type: 'use_composio_managed_auth' }), (err) =>
        assert.equal(statusOf(err), 400, `${err.name}: ${err.message}`),
      );
    });

    test('create (custom)', async () => {
      custom = await op('authConfigs.create(custom)', () =>
        composio.authConfigs.create('linear', {
          type: 'use_custom_auth',
          name: uid('linear-custom'),
          authScheme: 'OAUTH2',
          credentials: { client_id: 'cid-1', client_secret: 'csecret-1', scopes: 'read,write' },
        }),
      );
      assert.match(custom.id, /^ac_/);
      assert.equal(custom.isComposioManaged, false);
      assert.equal(custom.toolkit, 'linear');
      assert.equal(custom.authScheme, 'OAUTH2');
    });

    test('create (custom) with missing required credential -> 400', async () => {
      await opRejects('authConfigs.create(custom, no secret)', () =>
        composio.authConfigs.create('linear', {
          type: 'use_custom_auth',
          authScheme: 'OAUTH2',
          credentials: { client_id: 'only-id' },
        }), (err) => assert.equal(statusOf(err), 400, `${err.name}: ${err.message}`),
      );
    });

    test('get', async () => {
      const ac = await op('authConfigs.get', () => composio.authConfigs.get(custom.id));
      assert.equal(ac.id, custom.id);
      assert.equal(ac.name, uid('linear-custom'));
      assert.equal(ac.status, 'ENABLED');
      assert.equal(ac.toolkit.slug, 'linear');
      assert.equal(ac.authScheme, 'OAUTH2');
      assert.equal(ac.isComposioManaged, false);
      if (quirks.authConfigUuid) assert.equal(typeof ac.uuid, 'string');
      assert.equal(ac.noOfConnections, 0);
      assert.equal(ac.credentials?.client_id, 'cid-1');
      assert.notEqual(ac.credentials?.client_secret, 'csecret-1', 'secret credential must be masked');
    });

    test('get(unknown) -> 404', async () => {
      await opRejects('authConfigs.get(unknown)', () => composio.authConfigs.get('ac_doesnotexist00'), (err) =>
        assert.equal(statusOf(err), 404, `${err.name}: ${err.message}`),
      );
    });

    test('list (filters)', async () => {
      const all = await op('authConfigs.list()', () => composio.authConfigs.list());
      const ids = all.items.map((i) => i.id);
      assert.ok(ids.includes(managed.id) && ids.includes(custom.id));
      assert.equal(typeof all.totalPages, 'number');

      const gh = await op('authConfigs.list({toolkit})', () => composio.authConfigs.list({ toolkit: 'github' }));
      assert.ok(gh.items.some((i) => i.id === managed.id));
      assert.ok(gh.items.every((i) => i.toolkit.slug === 'github'));

      const mgd = await op('authConfigs.list({isComposioManaged:true})', () =>
        composio.authConfigs.list({ isComposioManaged: true }),
      );
      assert.ok(mgd.items.some((i) => i.id === managed.id));
      assert.ok(!mgd.items.some((i) => i.id === custom.id));
      assert.ok(mgd.items.every((i) => i.isComposioManaged === true));

      const cst = await op('authConfigs.list({isComposioManaged:false})', () =>
        composio.authConfigs.list({ isComposioManaged: false }),
      );
      assert.ok(cst.items.some((i) => i.id === custom.id));
      assert.ok(!cst.items.some((i) => i.id === managed.id));

      // cursor pagination
      const page1 = await op('authConfigs.list({limit:1})', () => composio.authConfigs.list({ limit: 1 }));
      assert.equal(page1.items.length, 1);
      assert.ok(page1.nextCursor, 'nextCursor expected with more than one item');
      const page2 = await op('authConfigs.list({cursor})', () =>
        composio.authConfigs.list({ limit: 1, cursor: page1.nextCursor }),
      );
      assert.equal(page2.items.length, 1);
      assert.notEqual(page2.items[0].id, page1.items[0].id);
    });

    test('update (custom)', async () => {
      await op('authConfigs.update(custom)', () =>
        composio.authConfigs.update(custom.id, {
          type: 'custom',
          credentials: { client_id: 'cid-2', client_secret: 'csecret-2' },
          toolAccessConfig: { toolsAvailableForExecution: ['LINEAR_CREATE_ISSUE'] },
        }),
      );
      const ac = await op('authConfigs.get', () => composio.authConfigs.get(custom.id));
      assert.equal(ac.credentials?.client_id, 'cid-2');
    });

    test('update (default)', async () => {
      await op('authConfigs.update(default)', () =>
        composio.authConfigs.update(managed.id, { type: 'default', scopes: 'repo,user' }),
      );
      const ac = await op('authConfigs.get', () => composio.authConfigs.get(managed.id));
      const scopes = ac.credentials?.scopes;
      const list = Array.isArray(scopes) ? scopes : String(scopes ?? '').split(/[ ,]+/).filter(Boolean);
      assert.deepEqual([...list].sort(), ['repo', 'user'], `credentials.scopes = ${JSON.stringify(scopes)}`);
    });

    test('disable / enable / updateStatus', async () => {
      const statusOfAc = async () => (await op('authConfigs.get', () => composio.authConfigs.get(custom.id))).status;
      await op('authConfigs.disable', () => composio.authConfigs.disable(custom.id));
      assert.equal(await statusOfAc(), 'DISABLED');
      await op('authConfigs.enable', () => composio.authConfigs.enable(custom.id));
      assert.equal(await statusOfAc(), 'ENABLED');
      await op('authConfigs.updateStatus(DISABLED)', () => composio.authConfigs.updateStatus('DISABLED', custom.id));
      assert.equal(await statusOfAc(), 'DISABLED');
      await op('authConfigs.updateStatus(ENABLED)', () => composio.authConfigs.updateStatus('ENABLED', custom.id));
      assert.equal(await statusOfAc(), 'ENABLED');
    });

    test('delete', async () => {
      await op('authConfigs.delete(custom)', () => composio.authConfigs.delete(custom.id));
      await op('authConfigs.delete(managed)', () => composio.authConfigs.delete(managed.id));
      await opRejects('authConfigs.get(deleted)', () => composio.authConfigs.get(custom.id), (err) =>
        assert.equal(statusOf(err), 404, `${err.name}: ${err.message}`),
      );
      const all = await op('authConfigs.list()', () => composio.authConfigs.list());
      assert.ok(!all.items.some((i) => i.id === custom.id || i.id === managed.id));
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('connectedAccounts', () => {
    const user = uid('user');
    const user2 = uid('user2');
    let stripeAc; // custom API_KEY auth config
    let githubAc; // managed OAUTH2 auth config
    let apiKeyAccount; // ConnectionRequest
    let oauthRequest; // ConnectionRequest (INITIATED)
    let linkRequest; // ConnectionRequest (INITIATED)

    before(async () => {
      stripeAc = await op('authConfigs.create(stripe API_KEY)', () =>
        composio.authConfigs.create('stripe', { type: 'use_custom_auth', authScheme: 'API_KEY', credentials: {} }),
      );
      githubAc = await op('authConfigs.create(github managed)', () =>
        composio.authConfigs.create('github', { type: 'use_composio_managed_auth' }),
      );
    });

    test('initiate with AuthScheme.APIKey -> ACTIVE at once', async () => {
      apiKeyAccount = await op('connectedAccounts.initiate(API_KEY)', () =>
        composio.connectedAccounts.initiate(user, stripeAc.id, {
          config: AuthScheme.APIKey({ api_key: 'sk_test_conformance' }),
        }),
      );
      assert.match(apiKeyAccount.id, /^ca_/);
      assert.equal(apiKeyAccount.status, 'ACTIVE');
      const acct = await op('connectedAccounts.get', () => composio.connectedAccounts.get(apiKeyAccount.id));
      assert.equal(acct.id, apiKeyAccount.id);
      assert.equal(acct.status, 'ACTIVE');
      assert.equal(acct.toolkit.slug, 'stripe');
      assert.equal(acct.authConfig.id, stripeAc.id);
      assert.equal(acct.authConfig.isComposioManaged, false);
      assert.equal(acct.isDisabled, false);
      assert.equal(acct.state?.authScheme, 'API_KEY');
      assert.equal(typeof acct.createdAt, 'string');
    });

    test('initiate again without allowMultiple -> ComposioMultipleConnectedAccountsError', async () => {
      await opRejects('connectedAccounts.initiate(dup)', () =>
        composio.connectedAccounts.initiate(user, stripeAc.id, { config: AuthScheme.APIKey({ api_key: 'sk_2' }) }),
        (err) => assert.ok(err instanceof ComposioMultipleConnectedAccountsError, `${err.name}: ${err.message}`),
      );
    });

    test('initiate API_KEY without the required api_key -> 400', async () => {
      await opRejects('connectedAccounts.initiate(no api_key)', () =>
        composio.connectedAccounts.initiate(uid('user3'), stripeAc.id, { config: AuthScheme.APIKey({}) }),
        (err) => assert.equal(statusOf(err), 400, `${err.name}: ${err.message}`),
      );
    });

    test('OAuth initiate with redirect', async () => {
      oauthRequest = await op('connectedAccounts.initiate(OAUTH2)', () =>
        composio.connectedAccounts.initiate(user, githubAc.id, { callbackUrl: 'https://example.com/callback' }),
      );
      assert.match(oauthRequest.id, /^ca_/);
      assert.equal(oauthRequest.status, 'INITIATED');
      assert.equal(typeof oauthRequest.redirectUrl, 'string', 'redirectUrl');
      const redirect = new URL(oauthRequest.redirectUrl);
      assert.ok(['http:', 'https:'].includes(redirect.protocol));
      // The redirect opens the emulator's consent page.
      const page = await fetch(redirect, { redirect: 'manual' });
      assert.equal(page.status, 200, `GET redirectUrl: HTTP ${page.status}`);
      const acct = await op('connectedAccounts.get', () => composio.connectedAccounts.get(oauthRequest.id));
      assert.equal(acct.status, 'INITIATED');
      assert.equal(acct.authConfig.isComposioManaged, true);
    });

    test('waitForConnection (timeout)', async () => {
      const t0 = Date.now();
      await opRejects('waitForConnection(timeout)', () => oauthRequest.waitForConnection(1200), (err) =>
        assert.ok(err instanceof ConnectionRequestTimeoutError, `${err.name}: ${err.message}`),
      );
      assert.ok(Date.now() - t0 >= 1000, 'timed out too early');
    });

    test('waitForConnection (success after completion)', async () => {
      const waiting = op('connectedAccounts.waitForConnection', () =>
        composio.connectedAccounts.waitForConnection(oauthRequest.id, 15000),
      );
      await sleep(300);
      await control('POST', `/_emulator/connected_accounts/${oauthRequest.id}/complete`, {});
      const acct = await waiting;
      assert.equal(acct.id, oauthRequest.id);
      assert.equal(acct.status, 'ACTIVE');
      // The ConnectionRequest's own waitForConnection now returns at once.
      const again = await op('ConnectionRequest.waitForConnection', () => oauthRequest.waitForConnection(5000));
      assert.equal(again.status, 'ACTIVE');
    });

    test('link', async () => {
      linkRequest = await op('connectedAccounts.link', () =>
        composio.connectedAccounts.link(user2, githubAc.id, { callbackUrl: 'https://example.com/after-link' }),
      );
      assert.match(linkRequest.id, /^ca_/);
      assert.equal(linkRequest.status, 'INITIATED');
      assert.equal(typeof linkRequest.redirectUrl, 'string');
      new URL(linkRequest.redirectUrl);
      const acct = await op('connectedAccounts.get', () => composio.connectedAccounts.get(linkRequest.id));
      assert.equal(acct.status, 'INITIATED');
      assert.equal(acct.authConfig.id, githubAc.id);
    });

    test('list with filters', async () => {
      const ids = (r) => r.items.map((i) => i.id).sort();
      const byUser = await op('list({userIds})', () => composio.connectedAccounts.list({ userIds: [user] }));
      assert.deepEqual(ids(byUser), [apiKeyAccount.id, oauthRequest.id].sort());

      const twoUsers = await op('list({userIds:[a,b]})', () =>
        composio.connectedAccounts.list({ userIds: [user, user2] }),
      );
      assert.deepEqual(ids(twoUsers), [apiKeyAccount.id, oauthRequest.id, linkRequest.id].sort());

      const stripe = await op('list({userIds, toolkitSlugs})', () =>
        composio.connectedAccounts.list({ userIds: [user, user2], toolkitSlugs: ['stripe'] }),
      );
      assert.deepEqual(ids(stripe), [apiKeyAccount.id]);

      const byAc = await op('list({authConfigIds})', () =>
        composio.connectedAccounts.list({ authConfigIds: [githubAc.id] }),
      );
      assert.deepEqual(ids(byAc), [oauthRequest.id, linkRequest.id].sort());

      const initiated = await op('list({authConfigIds, statuses})', () =>
        composio.connectedAccounts.list({ authConfigIds: [githubAc.id], statuses: ['INITIATED'] }),
      );
      assert.deepEqual(ids(initiated), [linkRequest.id]);

      const ordered = await op('list({orderBy})', () =>
        composio.connectedAccounts.list({ userIds: [user, user2], orderBy: 'created_at' }),
      );
      assert.equal(ordered.items.length, 3);

      const page1 = await op('list({limit:1})', () =>
        composio.connectedAccounts.list({ userIds: [user, user2], limit: 1 }),
      );
      assert.equal(page1.items.length, 1);
      assert.ok(page1.nextCursor, 'nextCursor expected');
      const page2 = await op('list({cursor})', () =>
        composio.connectedAccounts.list({ userIds: [user, user2], limit: 1, cursor: page1.nextCursor }),
      );
      assert.equal(page2.items.length, 1);
      assert.notEqual(page2.items[0].id, page1.items[0].id);
    });

    test('disable / enable / updateStatus', async () => {
      const disabled = async () =>
        (await op('connectedAccounts.get', () => composio.connectedAccounts.get(apiKeyAccount.id))).isDisabled;
      await op('connectedAccounts.disable', () => composio.connectedAccounts.disable(apiKeyAccount.id));
      assert.equal(await disabled(), true);
      await op('connectedAccounts.enable', () => composio.connectedAccounts.enable(apiKeyAccount.id));
      assert.equal(await disabled(), false);
      await op('connectedAccounts.updateStatus(false)', () =>
        composio.connectedAccounts.updateStatus(apiKeyAccount.id, { enabled: false, reason: 'conformance' }),
      );
      assert.equal(await disabled(), true);
      await op('connectedAccounts.updateStatus(true)', () =>
        composio.connectedAccounts.updateStatus(apiKeyAccount.id, { enabled: true }),
      );
      assert.equal(await disabled(), false);
    });

    test('refresh', async () => {
      const res = await op('connectedAccounts.refresh', () => composio.connectedAccounts.refresh(oauthRequest.id));
      assert.equal(res.id, oauthRequest.id);
      assert.equal(typeof res.status, 'string');
      assert.ok('redirect_url' in res, `refresh response: ${JSON.stringify(res)}`);
    });

    test('delete', async () => {
      for (const id of [apiKeyAccount.id, oauthRequest.id, linkRequest.id]) {
        await op('connectedAccounts.delete', () => composio.connectedAccounts.delete(id));
        await opRejects('connectedAccounts.get(deleted)', () => composio.connectedAccounts.get(id), (err) =>
          assert.equal(statusOf(err), 404, `${err.name}: ${err.message}`),
        );
      }
      const left = await op('list({userIds})', () => composio.connectedAccounts.list({ userIds: [user, user2] }));
      assert.deepEqual(left.items, []);
      // waitForConnection on a deleted account reports not-found.
      await opRejects('waitForConnection(deleted)', () =>
        composio.connectedAccounts.waitForConnection(apiKeyAccount.id, 1000), (err) =>
        assert.ok(err instanceof ComposioConnectedAccountNotFoundError, `${err.name}: ${err.message}`),
      );
      await op('authConfigs.delete', () => composio.authConfigs.delete(stripeAc.id));
      await op('authConfigs.delete', () => composio.authConfigs.delete(githubAc.id));
    });
  });

  // ---------------------------------------------------------------------------------------------
  describe('triggers', () => {
    const user = uid('trig-user');
    let githubAc;
    let stripeAc;
    let githubAccountId;
    let stripeAccountId;
    let githubTrigger;
    let stripeTrigger;

    before(async () => {
      ({ ac: githubAc, accountId: githubAccountId } = await activeGithubAccount(user));
      stripeAc = await op('authConfigs.create', () =>
        composio.authConfigs.create('stripe', { type: 'use_custom_auth', authScheme: 'API_KEY', credentials: {} }),
      );
      const sreq = await op('initiate(stripe)', () =>
        composio.connectedAccounts.initiate(user, stripeAc.id, { config: AuthScheme.APIKey({ api_key: 'sk_trig' }) }),
      );
      stripeAccountId = sreq.id;
    });

    test('listTypes', async () => {
      const res = await op('triggers.listTypes({toolkits})', () => composio.triggers.listTypes({ toolkits: ['github'] }));
      assert.ok(Array.isArray(res.items));
      const slugs = res.items.map((t) => t.slug);
      assert.ok(slugs.includes('GITHUB_COMMIT_EVENT'), JSON.stringify(slugs));
      assert.ok(slugs.includes('GITHUB_STAR_ADDED_EVENT'));
      assert.ok(res.items.every((t) => t.toolkit.slug === 'github'));
      const two = await op('triggers.listTypes({toolkits:[a,b]})', () =>
        composio.triggers.listTypes({ toolkits: ['github', 'stripe'] }),
      );
      assert.ok(two.items.some((t) => t.slug === 'STRIPE_CHARGE_SUCCEEDED_TRIGGER'));
      assert.ok(two.items.some((t) => t.slug === 'GITHUB_COMMIT_EVENT'));
      const all = await op('triggers.listTypes()', () => composio.triggers.listTypes());
      assert.ok(all.items.length >= two.items.length);
      const page = await op('triggers.listTypes({limit:1})', () => composio.triggers.listTypes({ limit: 1 }));
      assert.equal(page.items.length, 1);
      assert.ok(page.nextCursor);
      const next = await op('triggers.listTypes({cursor})', () =>
        composio.triggers.listTypes({ limit: 1, cursor: page.nextCursor }),
      );
      assert.notEqual(next.items[0].slug, page.items[0].slug);
    });

    test('getType', async () => {
      const t = await op('triggers.getType', () => composio.triggers.getType('GITHUB_COMMIT_EVENT'));
      assert.equal(t.slug, 'GITHUB_COMMIT_EVENT');
      assert.equal(t.toolkit.slug, 'github');
      assert.equal(typeof t.name, 'string');
      assert.equal(typeof t.description, 'string');
      assert.equal(t.config.type, 'object');
      assert.ok(t.config.required?.includes('owner') && t.config.required?.includes('repo'), JSON.stringify(t.config));
      assert.equal(typeof t.payload, 'object');
      await opRejects('triggers.getType(unknown)', () => composio.triggers.getType('NO_SUCH_TRIGGER_XYZ'), (err) =>
        assert.equal(statusOf(err), 404, `${err.name}: ${err.message}`),
      );
    });

    test('create', async () => {
      const gh = await op('triggers.create(github)', () =>
        composio.triggers.create(user, 'GITHUB_COMMIT_EVENT', {
          connectedAccountId: githubAccountId,
          triggerConfig: { owner: 'octo', repo: 'hello' },
        }),
      );
      assert.match(gh.triggerId, /^ti_/);
      githubTrigger = gh.triggerId;
      // Without connectedAccountId the SDK picks the user's account for the toolkit.
      const st = await op('triggers.create(stripe)', () =>
        composio.triggers.create(user, 'STRIPE_CHARGE_SUCCEEDED_TRIGGER', { triggerConfig: {} }),
      );
      assert.match(st.triggerId, /^ti_/);
      stripeTrigger = st.triggerId;
    });

    test('create rejects an invalid trigger_config / unknown type', async () => {
      const err = await opRejects('triggers.create(missing repo)', () =>
        composio.triggers.create(user, 'GITHUB_COMMIT_EVENT', {
          connectedAccountId: githubAccountId,
          triggerConfig: { owner: 'octo' },
        }),
      );
      assert.equal(statusOf(err), 400, `${err.name}: ${err.message}`);
      assert.match(String(err.message), /repo/, 'error names the bad field');
      await opRejects('triggers.create(unknown)', () =>
        composio.triggers.create(user, 'NO_SUCH_TRIGGER_XYZ', { triggerConfig: {} }), (e) =>
        assert.ok(e instanceof ComposioTriggerTypeNotFoundError, `${e.name}: ${e.message}`),
      );
    });

    test('listActive', async () => {
      const all = await op('triggers.listActive()', () => composio.triggers.listActive());
      const ids = all.items.map((i) => i.id);
      assert.ok(ids.includes(githubTrigger) && ids.includes(stripeTrigger), JSON.stringify(ids));
      const one = await op('triggers.listActive({triggerIds})', () =>
        composio.triggers.listActive({ triggerIds: [githubTrigger] }),
      );
      assert.equal(one.items.length, 1);
      const ti = one.items[0];
      assert.equal(ti.id, githubTrigger);
      assert.equal(ti.triggerName, 'GITHUB_COMMIT_EVENT');
      assert.equal(ti.connectedAccountId, githubAccountId);
      assert.deepEqual(ti.triggerConfig, { owner: 'octo', repo: 'hello' });
      assert.equal(ti.disabledAt, null);
      const byAccount = await op('triggers.listActive({connectedAccountIds})', () =>
        composio.triggers.listActive({ connectedAccountIds: [stripeAccountId] }),
      );
      assert.deepEqual(byAccount.items.map((i) => i.id), [stripeTrigger]);
      const byName = await op('triggers.listActive({triggerNames})', () =>
        composio.triggers.listActive({ triggerNames: ['STRIPE_CHARGE_SUCCEEDED_TRIGGER'], authConfigIds: [stripeAc.id] }),
      );
      assert.deepEqual(byName.items.map((i) => i.id), [stripeTrigger]);
    });

    test('disable / listActive with and without showDisabled / enable', async () => {
      await op('triggers.disable', () => composio.triggers.disable(githubTrigger));
      const hidden = await op('triggers.listActive({triggerIds})', () =>
        composio.triggers.listActive({ triggerIds: [githubTrigger] }),
      );
      assert.deepEqual(hidden.items, [], 'disabled trigger hidden without showDisabled');
      const shown = await op('triggers.listActive({showDisabled})', () =>
        composio.triggers.listActive({ triggerIds: [githubTrigger], showDisabled: true }),
      );
      assert.equal(shown.items.length, 1);
      assert.equal(typeof shown.items[0].disabledAt, 'string', 'disabledAt set');
      await op('triggers.enable', () => composio.triggers.enable(githubTrigger));
      const back = await op('triggers.listActive({triggerIds})', () =>
        composio.triggers.listActive({ triggerIds: [githubTrigger] }),
      );
      assert.equal(back.items.length, 1);
      assert.equal(back.items[0].disabledAt, null);
      const upd = await op('triggers.update(disable)', () => composio.triggers.update(stripeTrigger, { status: 'disable' }));
      assert.equal(upd?.status, 'success');
      await op('triggers.update(enable)', () => composio.triggers.update(stripeTrigger, { status: 'enable' }));
    });

    test('verifyWebhook on a webhook the emulator delivered', { skip: !WEBHOOK_SECRET || !CAPTURE_URL }, async () => {
      const event = { commit: { sha: 'abc123', message: 'conformance ✓' }, run };
      await control('POST', `/_emulator/trigger_instances/${githubTrigger}/fire`, event);
      let delivery;
      const deadline = Date.now() + 15000;
      while (!delivery && Date.now() < deadline) {
        const res = await fetch(`${CAPTURE_URL}/captured?trigger_id=${encodeURIComponent(githubTrigger)}`);
        const list = await res.json();
        delivery = list[0];
        if (!delivery) await sleep(100);
      }
      assert.ok(delivery, 'the emulator delivered no webhook within 15s');
      const params = {
        payload: delivery.body,
        signature: delivery.signature,
        id: delivery.id,
        timestamp: delivery.timestamp,
        secret: WEBHOOK_SECRET,
      };
      const result = await op('triggers.verifyWebhook', async () => verifyWebhook(params));
      assert.equal(result.version, 'V3');
      assert.equal(result.payload.id, githubTrigger);
      assert.equal(result.payload.triggerSlug, 'GITHUB_COMMIT_EVENT');
      assert.equal(result.payload.toolkitSlug, 'GITHUB');
      assert.equal(result.payload.userId, user);
      assert.deepEqual(result.payload.payload, event);
      assert.equal(result.payload.metadata.connectedAccount.id, githubAccountId);
      assert.equal(result.payload.metadata.connectedAccount.authConfigId, githubAc.id);

      await verifyWebhookRejects('tampered body', { ...params, payload: params.payload.replace('abc123', 'abc124') });
      await verifyWebhookRejects('wrong secret', { ...params, secret: `${WEBHOOK_SECRET}x` });
      const staleTs = String(Number(params.timestamp) - 3600);
      await verifyWebhookRejects('stale timestamp', {
        ...params,
        timestamp: staleTs,
        signature: `v1,${sign(WEBHOOK_SECRET, params.id, staleTs, params.payload)}`,
      }, /tolerance/);
    });

    // The project's webhook subscription (made by the emulator's --webhook-url) is switched to
    // each payload version; every delivery must verify with the SDK and parse to the same event.
    test('verifyWebhook on V1, V2 and V3 deliveries of the webhook subscription', { skip: !WEBHOOK_SECRET || !CAPTURE_URL }, async () => {
      const subs = await control('GET', '/api/v3.1/webhook_subscriptions');
      assert.equal(subs.items.length, 1, JSON.stringify(subs));
      const sub = subs.items[0];
      assert.equal(sub.secret, WEBHOOK_SECRET);
      const types = await control('GET', '/api/v3.1/webhook_subscriptions/event_types');
      const message = types.items.find((t) => t.event_type === 'composio.trigger.message');
      assert.deepEqual([...message.supported_versions].sort(), ['V1', 'V2', 'V3']);
      try {
        for (const version of ['V1', 'V2', 'V3']) {
          const updated = await control('PATCH', `/api/v3.1/webhook_subscriptions/${sub.id}`, { version });
          assert.equal(updated.version, version);
          const event = { commit: { sha: `sha-${version}` }, run };
          const fired = await control('POST', `/_emulator/trigger_instances/${githubTrigger}/fire`, event);
          let delivery;
          const deadline = Date.now() + 15000;
          while (!delivery && Date.now() < deadline) {
            const res = await fetch(`${CAPTURE_URL}/captured?trigger_id=${encodeURIComponent(githubTrigger)}`);
            delivery = (await res.json()).find((d) => d.id === fired.webhook_id);
            if (!delivery) await sleep(100);
          }
          assert.ok(delivery, `${version}: the emulator delivered no webhook within 15s`);
          assert.equal(delivery.version, version, 'x-composio-webhook-version');
          const params = {
            payload: delivery.body, signature: delivery.signature, id: delivery.id, timestamp: delivery.timestamp,
            secret: WEBHOOK_SECRET,
          };
          const result = await op(`triggers.verifyWebhook(${version})`, async () => verifyWebhook(params));
          assert.equal(result.version, version);
          assert.equal(result.payload.triggerSlug, 'GITHUB_COMMIT_EVENT');
          assert.equal(result.payload.toolkitSlug, 'GITHUB');
          assert.equal(result.payload.metadata.connectedAccount.id, githubAccountId);
          assert.deepEqual(result.payload.payload.commit, event.commit);
          if (version !== 'V1') assert.equal(result.payload.userId, user);
          if (version !== 'V2') assert.equal(result.payload.id, githubTrigger);
          else assert.equal(result.payload.metadata.id, githubTrigger);
          await verifyWebhookRejects(`${version} wrong secret`, { ...params, secret: `${WEBHOOK_SECRET}x` });
        }
      } finally {
        await control('PATCH', `/api/v3.1/webhook_subscriptions/${sub.id}`, { version: 'V3' });
      }
    });

    test('delete', async () => {
      for (const id of [githubTrigger, stripeTrigger]) {
        const res = await op('triggers.delete', () => composio.triggers.delete(id));
        assert.equal(res.triggerId, id);
      }
      const left = await op('triggers.listActive({showDisabled})', () =>
        composio.triggers.listActive({ triggerIds: [githubTrigger, stripeTrigger], showDisabled: true }),
      );
      assert.deepEqual(left.items, []);
      for (const id of [githubAccountId, stripeAccountId]) {
        await op('connectedAccounts.delete', () => composio.connectedAccounts.delete(id));
      }
      await op('authConfigs.delete', () => composio.authConfigs.delete(githubAc.id));
      await op('authConfigs.delete', () => composio.authConfigs.delete(stripeAc.id));
    });
  });

  // ---------------------------------------------------------------------------------------------
  // Webhook signatures across implementations (`sign` is defined at the top of this module).
  describe('webhook signatures (Go <-> SDK)', () => {
    test('SDK accepts what Go webhooktest.SignWebhook produced and rejects tampering', { skip: !GO_VECTORS }, async () => {
      const v = JSON.parse(fs.readFileSync(GO_VECTORS, 'utf8'));
      const base = { payload: v.valid.body, signature: v.valid.signature, id: v.valid.id, timestamp: v.valid.timestamp, secret: v.secret };
      const res = await verifyWebhook(base);
      assert.equal(res.version, 'V3');
      await verifyWebhookRejects('tampered body', { ...base, payload: base.payload.replace('"data":{', '"data":{"x":1,') });
      await verifyWebhookRejects('wrong secret', { ...base, secret: `${v.secret}-wrong` });
      await verifyWebhookRejects('stale timestamp', {
        ...base,
        signature: v.stale.signature,
        id: v.stale.id,
        timestamp: v.stale.timestamp,
        payload: v.stale.body,
      }, /tolerance/);
      // The stale vector is correctly signed: with the tolerance check off it verifies.
      await verifyWebhook({
        payload: v.stale.body, signature: v.stale.signature, id: v.stale.id, timestamp: v.stale.timestamp,
        secret: v.secret, tolerance: 0,
      });
    });

    test('SDK-algorithm signatures for Go webhooktest.VerifyWebhook', { skip: !NODE_VECTORS }, async () => {
      const secret = `node-secret-${run}`;
      const now = Math.floor(Date.now() / 1000);
      const mk = (id, ts) => {
        const body = JSON.stringify({
          id: `evt_${id}`,
          timestamp: new Date(ts * 1000).toISOString(),
          type: 'composio.trigger.message',
          metadata: {
            log_id: `log_${id}`, trigger_slug: 'GITHUB_COMMIT_EVENT', trigger_id: 'ti_node', connected_account_id: 'ca_node',
            auth_config_id: 'ac_node', user_id: 'node-user',
          },
          data: { sha: 'f00d', note: 'signed in node ✓' },
        });
        return { id: `msg_${id}`, timestamp: String(ts), body, signature: `v1,${sign(secret, `msg_${id}`, String(ts), body)}` };
      };
      const valid = mk('valid', now);
      const stale = mk('stale', now - 3600);
      // Prove that `sign` is the SDK's algorithm: the SDK itself accepts it.
      const res = await verifyWebhook({ ...valid, payload: valid.body, secret });
      assert.equal(res.payload.triggerSlug, 'GITHUB_COMMIT_EVENT');
      await verifyWebhook({ ...stale, payload: stale.body, secret, tolerance: 0 });
      fs.writeFileSync(NODE_VECTORS, JSON.stringify({ secret, valid, stale }));
    });
  });

  return { sdk, composio, op, opRejects, control, activeGithubAccount, statusOf, uid, sleep, allWarns, BASE_URL, API_KEY };
}
