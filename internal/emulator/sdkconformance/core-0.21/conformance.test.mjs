// SDK conformance for @composio/core 0.21.0 (calls /api/v3.1): drives the service emulator
// with the SDK pinned in package.json / package-lock.json of this folder. The tests shared with
// the 0.5.3 run (../conformance.test.mjs) are in ../shared/suite.mjs; this entry imports the SDK
// installed here, passes it in with the 0.21.0 quirks, and adds a "v3.1 surface" section (tools
// get/execute, toolkits.authorize, tool-router sessions, toolkit versions pinned in the SDK config).
//
// Run by ../conformance_test.go (TestSDKConformanceCore021) with the same environment as the
// 0.5.3 run. By hand, against a running emulator:
//
//   SDKC_BASE_URL=http://127.0.0.1:8080 SDKC_API_KEY=emulator-key NODE_ENV=test \
//     node --test-reporter=spec conformance.test.mjs
//
// Environment: see ../shared/suite.mjs (SDKC_BASE_URL, SDKC_API_KEY, SDKC_WEBHOOK_SECRET,
// SDKC_CAPTURE_URL, SDKC_GO_VECTORS, SDKC_NODE_VECTORS).
//
// Install notes: 0.21.0 pins @composio/client 2.0.0-rc.8, which is not on the registry; the
// package.json override uses 2.0.0-rc.6 (identical in-scope paths). Core (node >=22.22.3),
// the client and openai@7 declare node 22, but nothing used here needs it: .npmrc sets
// engine-strict=false so `npm ci` installs on node 20.

import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';

import * as sdk from '@composio/core';

import { conformanceSuite } from '../shared/suite.mjs';

const { Composio, ComposioToolNotFoundError, ComposioToolVersionRequiredError } = sdk;

// Differences from 0.5.3 (SDK changes, not emulator deviations): see the quirks below.
const { composio, op, opRejects, activeGithubAccount, statusOf, uid, allWarns, BASE_URL, API_KEY } = conformanceSuite(sdk, {
  // authConfigs.get no longer maps `uuid`.
  authConfigUuid: false,
  // toolkits.get(unknown slug) raises ComposioToolkitNotFoundError (the 0.5.3 bug is fixed).
  unknownToolkitErrors: [sdk.ComposioToolkitNotFoundError],
  // triggers.verifyWebhook is async (returns a Promise; failures reject).
  verifyWebhookAsync: true,
  // 0.21.0 validates most responses with zod but only logs `Transform validation failed`
  // through console.warn (zod safeParse + logger.warn): such warnings are failures.
  isSdkWarningError: (line) =>
    /Unsupported auth scheme in connected account state|validation failed|Failed to parse|Invalid/i.test(line),
});

// ---------------------------------------------------------------------------------------------
describe('v3.1 surface (tools, authorize, tool router, pinned versions)', () => {
  const user = uid('v31-user');
  let githubAc;
  let githubAccount;

  before(async () => {
    ({ ac: githubAc, accountId: githubAccount } = await activeGithubAccount(user));
  });

  test('tools.getRawComposioTools / getRawComposioToolBySlug', async () => {
    const list = await op('getRawComposioTools({toolkits})', () => composio.tools.getRawComposioTools({ toolkits: ['github'] }));
    assert.ok(Array.isArray(list), typeof list);
    assert.ok(list.some((t) => t.slug === 'GITHUB_CREATE_AN_ISSUE'), JSON.stringify(list.map((t) => t.slug)));
    for (const t of list) assert.equal(t.toolkit?.slug, 'github');
    const two = await op('getRawComposioTools({tools})', () =>
      composio.tools.getRawComposioTools({ tools: ['GITHUB_CREATE_AN_ISSUE', 'SLACK_SEND_MESSAGE'] }),
    );
    assert.deepEqual(two.map((t) => t.slug).sort(), ['GITHUB_CREATE_AN_ISSUE', 'SLACK_SEND_MESSAGE']);
    const one = await op('getRawComposioToolBySlug', () => composio.tools.getRawComposioToolBySlug('GITHUB_CREATE_AN_ISSUE'));
    assert.equal(one.slug, 'GITHUB_CREATE_AN_ISSUE');
    assert.equal(one.inputParameters?.type, 'object');
    assert.ok(one.inputParameters.required.includes('title'));
    const pinned = await op('getRawComposioToolBySlug(version)', () =>
      composio.tools.getRawComposioToolBySlug('GITHUB_CREATE_AN_ISSUE', { version: '20250901_00' }),
    );
    assert.equal(pinned.version, '20250901_00');
    await opRejects('getRawComposioToolBySlug(unknown)', () => composio.tools.getRawComposioToolBySlug('NO_SUCH_TOOL_XYZ'), (e) =>
      assert.ok(e instanceof ComposioToolNotFoundError, `${e.name}: ${e.message}`),
    );
  });

  test('tools.get (OpenAI provider wrapping)', async () => {
    const wrapped = await op('tools.get(user, {toolkits})', () => composio.tools.get(user, { toolkits: ['github'] }));
    assert.ok(Array.isArray(wrapped));
    assert.ok(wrapped.some((t) => t.function?.name === 'GITHUB_CREATE_AN_ISSUE'), JSON.stringify(wrapped).slice(0, 400));
    const bySlug = await op('tools.get(user, slug)', () => composio.tools.get(user, 'GITHUB_GET_A_REPOSITORY'));
    assert.equal(bySlug.length, 1);
  });

  test('tools.execute', async () => {
    await opRejects('execute(latest, no skip)', () =>
      composio.tools.execute('GITHUB_GET_A_REPOSITORY', { userId: user, arguments: { owner: 'o', repo: 'r' } }), (e) =>
      assert.ok(e instanceof ComposioToolVersionRequiredError, `${e.name}: ${e.message}`),
    );
    const res = await op('execute(dangerouslySkipVersionCheck)', () =>
      composio.tools.execute('GITHUB_GET_A_REPOSITORY', {
        userId: user, arguments: { owner: 'octo', repo: 'hello' }, dangerouslySkipVersionCheck: true,
      }),
    );
    assert.equal(res.successful, true, JSON.stringify(res));
    assert.equal(res.error, null);
    assert.equal(typeof res.data, 'object');
    const pinned = await op('execute(version)', () =>
      composio.tools.execute('GITHUB_GET_A_REPOSITORY', {
        userId: user, connectedAccountId: githubAccount, arguments: { owner: 'octo', repo: 'hello' }, version: '20250901_00',
      }),
    );
    assert.equal(pinned.successful, true, JSON.stringify(pinned));
    const pinnedSdk = new Composio({
      apiKey: API_KEY, baseURL: BASE_URL, disableVersionCheck: true, allowTracking: false,
      toolkitVersions: { github: '20250901_00' },
    });
    const viaConfig = await op('execute(toolkitVersions)', () =>
      pinnedSdk.tools.execute('GITHUB_GET_A_REPOSITORY', { userId: user, arguments: { owner: 'octo', repo: 'hello' } }),
    );
    assert.equal(viaConfig.successful, true, JSON.stringify(viaConfig));
  });

  test('toolkits.authorize', async () => {
    const u = uid('authorize-user');
    const req = await op('toolkits.authorize(github)', () => composio.toolkits.authorize(u, 'github'));
    assert.match(req.id, /^ca_/);
    assert.equal(req.status, 'INITIATED');
    assert.equal(typeof req.redirectUrl, 'string');
    const withAc = await op('toolkits.authorize(github, ac)', () => composio.toolkits.authorize(uid('authorize-2'), 'github', githubAc.id));
    const acct = await op('connectedAccounts.get', () => composio.connectedAccounts.get(withAc.id));
    assert.equal(acct.authConfig.id, githubAc.id);
    for (const id of [req.id, withAc.id]) await op('connectedAccounts.delete', () => composio.connectedAccounts.delete(id));
  });

  test('toolRouter create / use / session.tools() / delete', async () => {
    const session = await op('toolRouter.create', () => composio.toolRouter.create(user, { toolkits: ['github'] }));
    assert.match(session.sessionId, /^trs_/);
    assert.equal(session.config.user_id, user);
    const again = await op('toolRouter.use', () => composio.toolRouter.use(session.sessionId, { mcp: true }));
    assert.equal(again.sessionId, session.sessionId);
    assert.equal(new URL(again.mcp.url).origin, new URL(BASE_URL).origin);
    assert.equal(again.mcp.headers?.['x-api-key'], API_KEY);
    const tools = await op('session.tools()', () => again.tools());
    const names = tools.map((t) => t.function?.name);
    assert.ok(names.includes('COMPOSIO_SEARCH_TOOLS'), JSON.stringify(names));
    assert.ok(!names.some((n) => n?.startsWith('GITHUB_')), `nothing preloaded: ${names}`);
    const deleted = await op('session.delete', () => again.delete());
    assert.equal(deleted.sessionId ?? deleted.session_id, session.sessionId, JSON.stringify(deleted));
    assert.equal(deleted.deleted, true);
    await opRejects('toolRouter.use(deleted)', () => composio.toolRouter.use(session.sessionId), (e) =>
      assert.equal(statusOf(e), 404, `${e.name}: ${e.message}`),
    );
  });

  test('composio.create with the direct_tools preset preloads the toolkit tools', async () => {
    const session = await op('composio.create(direct_tools)', () =>
      composio.create(user, { sessionPreset: 'direct_tools', toolkits: ['github'] }),
    );
    assert.deepEqual(session.preload, { tools: 'all' });
    assert.equal(session.config.search?.enable, false);
    assert.equal(session.config.manage_connections?.enabled, false);
    const names = (await op('session.tools()', () => session.tools())).map((t) => t.function?.name);
    for (const slug of ['GITHUB_CREATE_AN_ISSUE', 'GITHUB_GET_A_REPOSITORY']) assert.ok(names.includes(slug), `${slug} in ${names}`);
    assert.ok(!names.some((n) => n?.startsWith('SLACK_')), String(names));
    await op('session.delete', () => session.delete());
  });

  test('triggers.getType with toolkitVersions pinned', async () => {
    const old = new Composio({
      apiKey: API_KEY, baseURL: BASE_URL, disableVersionCheck: true, allowTracking: false,
      toolkitVersions: { github: '20250901_00' },
    });
    const t = await op('triggers.getType(pinned)', () => old.triggers.getType('GITHUB_COMMIT_EVENT'));
    assert.equal(t.version, '20250901_00');
    assert.ok(!('branch' in (t.config.properties ?? {})), JSON.stringify(t.config));
    const latest = await op('triggers.getType(latest)', () => composio.triggers.getType('GITHUB_COMMIT_EVENT'));
    assert.ok('branch' in (latest.config.properties ?? {}), JSON.stringify(latest.config));
    const listed = await op('triggers.listTypes(pinned)', () => old.triggers.listTypes({ toolkits: ['github'] }));
    const commit = listed.items.find((i) => i.slug === 'GITHUB_COMMIT_EVENT');
    assert.ok(!('branch' in (commit.config.properties ?? {})), JSON.stringify(commit.config));
  });

  test('cleanup', async () => {
    await op('connectedAccounts.delete', () => composio.connectedAccounts.delete(githubAccount));
    await op('authConfigs.delete', () => composio.authConfigs.delete(githubAc.id));
    const unexpected = allWarns.filter((l) => !/allowMultiple|deprecat/i.test(l));
    assert.deepEqual(unexpected, [], 'SDK warnings during the run');
  });
});
