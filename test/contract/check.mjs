// Checks recorded HTTP exchanges against the TypeScript types of the installed
// @composio/client, with the TypeScript compiler's type checker.
//
//   node check.mjs ops                     prints the operation table (JSON)
//   node check.mjs check RECORDS OUT       checks RECORDS, writes the findings to OUT
//   node check.mjs serve                   checks each line of stdin (an array of records), answers a line each
//
// The operation table (method, path template, method chain) is the package's own
// GENERATED_OPERATIONS array. Each operation's wire types are the generated
// `<OperationName>Data` (path, query, body) and `<OperationName>Responses`
// (status -> body) aliases of the package's declaration file, looked up by the
// hey-api operation name (`PATCH /api/v3.1/auth_configs/{nanoid}/{status}` ->
// `PatchApiV31AuthConfigsByNanoidByStatus`). Values are walked against the
// resolved ts.Type: missing required properties, wrong primitive types, values
// outside literal unions, array elements, nullability; a union accepts a value
// any member accepts. Properties a type does not declare are reported as
// `undeclared` findings (the Go side decides which of them fail).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const distDir = path.join(here, 'node_modules', '@composio', 'client', 'dist');

// ---------------------------------------------------------------------------
// operation table

async function loadOperations() {
  const chunk = fs.readdirSync(distDir).find((f) => /^generated-operations-.*\.mjs$/.test(f));
  if (!chunk) throw new Error(`no generated-operations chunk in ${distDir}`);
  const mod = await import(pathToFileURL(path.join(distDir, chunk)).href);
  const table = Object.values(mod).find(
    (v) => Array.isArray(v) && v.length > 0 && v.every((o) => o && typeof o.path === 'string' && Array.isArray(o.chain)),
  );
  if (!table) throw new Error(`${chunk} exports no operation table`);
  return table.map((o) => ({
    method: o.method.toUpperCase(),
    path: o.path,
    operation: o.chain.join('.'),
    name: operationName(o.method, o.path),
    schemes: o.schemes ?? ['ApiKeyAuth'],
  }));
}

// operationName is hey-api's operation name for a method and path template.
function operationName(method, template) {
  const pascal = (s) =>
    s
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('');
  let name = method[0].toUpperCase() + method.slice(1).toLowerCase();
  for (const seg of template.split('/').filter(Boolean)) {
    if (seg === 'v3.1') name += 'V31';
    else if (seg.startsWith('{')) name += 'By' + pascal(seg.slice(1, -1));
    else name += pascal(seg);
  }
  return name;
}

// ---------------------------------------------------------------------------
// type program

function loadTypes() {
  const decl = fs.readdirSync(distDir).find((f) => /^client-.*\.d\.mts$/.test(f));
  if (!decl) throw new Error(`no client-*.d.mts in ${distDir}`);
  const file = path.join(distDir, decl);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  });
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(file);
  const aliases = new Map();
  let client;
  for (const st of sf.statements) {
    if (ts.isClassDeclaration(st) && st.name && st.name.text === 'Composio') client = checker.getTypeAtLocation(st.name);
    if ((ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)) && /(Data|Responses)$/.test(st.name.text)) {
      aliases.set(st.name.text, checker.getTypeAtLocation(st.name));
    }
  }
  if (!client) throw new Error(`${decl} declares no Composio class`);
  return { checker, aliases, client };
}

// methodSignature resolves an operation's method (its chain on the Composio
// client class) to its call signature.
function methodSignature(checker, client, chain) {
  let t = client;
  for (const name of chain.split('.')) {
    const sym = checker.getPropertyOfType(t, name);
    if (!sym) return undefined;
    t = checker.getTypeOfSymbol(sym);
  }
  const sigs = t.getCallSignatures();
  return sigs.length > 0 ? sigs[sigs.length - 1] : undefined;
}

// fallbackTypes builds the Data / Responses stand-ins for operations whose
// generated aliases the package does not ship: path parameters from the
// method's parameters (by name, or as a property of a params object), the
// response from the awaited return type, for any 2xx status.
function fallbackTypes(checker, sig) {
  if (!sig) return {};
  const pathParams = new Map();
  for (const p of sig.getParameters()) {
    const pt = checker.getNonNullableType(checker.getTypeOfSymbol(p));
    pathParams.set(p.getName(), pt);
    if (pt.flags & F.Object) {
      for (const sub of checker.getPropertiesOfType(pt)) {
        if (!pathParams.has(sub.getName())) pathParams.set(sub.getName(), checker.getTypeOfSymbol(sub));
      }
    }
  }
  const ret = sig.getReturnType();
  const awaited = checker.getAwaitedType(ret) || ret;
  return { pathParams, response: awaited };
}

// ---------------------------------------------------------------------------
// value walker

const F = ts.TypeFlags;

function makeWalker(checker) {
  const strCache = new WeakMap();
  const str = (t) => {
    let s = strCache.get(t);
    if (s === undefined) {
      s = checker.typeToString(t, undefined, ts.TypeFormatFlags.NoTruncation);
      strCache.set(t, s);
    }
    return s;
  };
  const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  const short = (v) => {
    const s = JSON.stringify(v);
    return s.length > 60 ? s.slice(0, 57) + '...' : s;
  };

  function propType(sym) {
    return checker.getTypeOfSymbol(sym);
  }

  // isObjectLike: a member a JSON object or array can match.
  const isObjectLike = (t) => (t.flags & (F.Object | F.Intersection | F.NonPrimitive)) !== 0;

  // literalOf returns [true, value] for literal types.
  function literalOf(t) {
    if (t.flags & F.StringLiteral) return [true, t.value];
    if (t.flags & F.NumberLiteral) return [true, t.value];
    if (t.flags & F.BooleanLiteral) return [true, t.intrinsicName === 'true'];
    return [false];
  }

  // primitiveAccepts: does primitive type t accept the JSON primitive v?
  function primitiveAccepts(t, v) {
    if (t.flags & (F.Any | F.Unknown)) return true;
    const [isLit, lit] = literalOf(t);
    if (isLit) return lit === v;
    if (v === null) return (t.flags & F.Null) !== 0;
    switch (typeof v) {
      case 'string':
        return (t.flags & (F.String | F.TemplateLiteral)) !== 0 || isDate(t);
      case 'number':
        return (t.flags & F.Number) !== 0;
      case 'boolean':
        return (t.flags & F.Boolean) !== 0;
    }
    return false;
  }

  const isDate = (t) => t.symbol && t.symbol.name === 'Date';

  function walk(v, t, p, out) {
    if (t.flags & (F.Any | F.Unknown)) return;
    if (t.flags & F.Union) return walkUnion(v, t, p, out);
    if (v === null || typeof v !== 'object') {
      if (isObjectLike(t) && !isDate(t)) {
        out.push({ path: p, kind: v === null ? 'null' : 'type', m: () => `got ${describe(v)} ${short(v)}, want ${str(t)}` });
        return;
      }
      if (!primitiveAccepts(t, v)) {
        const [isLit] = literalOf(t);
        out.push({ path: p, kind: isLit ? 'enum' : v === null ? 'null' : 'type', m: () => `got ${short(v)}, want ${str(t)}` });
      }
      return;
    }
    if (!isObjectLike(t)) {
      out.push({ path: p, kind: 'type', m: () => `got ${describe(v)}, want ${str(t)}` });
      return;
    }
    if (t.flags & F.NonPrimitive) return; // `object`
    if (Array.isArray(v)) {
      if (checker.isTupleType(t)) {
        const elems = checker.getTypeArguments(t);
        v.forEach((e, i) => (i < elems.length ? walk(e, elems[i], `${p}[]`, out) : out.push({ path: p, kind: 'type', m: () => `tuple longer than ${elems.length}` })));
        return;
      }
      if (checker.isArrayType(t)) {
        const elem = checker.getTypeArguments(t)[0];
        for (const e of v) walk(e, elem, `${p}[]`, out);
        return;
      }
      out.push({ path: p, kind: 'type', m: () => `got array, want ${str(t)}` });
      return;
    }
    if (checker.isArrayType(t) || checker.isTupleType(t)) {
      out.push({ path: p, kind: 'type', m: () => `got object, want ${str(t)}` });
      return;
    }
    const props = checker.getPropertiesOfType(t);
    const declared = new Set();
    for (const sym of props) {
      const name = sym.getName();
      declared.add(name);
      const pt = propType(sym);
      const sub = p ? `${p}.${name}` : name;
      if (!Object.prototype.hasOwnProperty.call(v, name) || v[name] === undefined) {
        if (!(sym.flags & ts.SymbolFlags.Optional) && !acceptsUndefined(pt)) {
          out.push({ path: sub, kind: 'missing', m: () => `required property missing (${str(pt)})` });
        }
        continue;
      }
      walk(v[name], pt, sub, out);
    }
    const index = checker.getIndexInfosOfType(t).find((ii) => ii.keyType.flags & (F.String | F.TemplateLiteral));
    for (const k of Object.keys(v)) {
      if (declared.has(k)) continue;
      const sub = p ? `${p}.${k}` : k;
      if (index) walk(v[k], index.type, `${p}{}`, out);
      else out.push({ path: sub, kind: 'undeclared', m: () => 'property not declared by the type' });
    }
  }

  // discriminants lists the properties of an object type whose type is a
  // set of literals (cached per type).
  const discCache = new WeakMap();
  function discriminants(t) {
    let d = discCache.get(t);
    if (d) return d;
    d = [];
    for (const sym of checker.getPropertiesOfType(t)) {
      const pt = checker.getTypeOfSymbol(sym);
      const ms = (pt.flags & F.Union ? pt.types : [pt]).filter((m) => !(m.flags & (F.Undefined | F.Void)));
      if (ms.length > 0 && ms.every((m) => literalOf(m)[0])) {
        d.push([sym.getName(), new Set(ms.map((m) => literalOf(m)[1]))]);
      }
    }
    discCache.set(t, d);
    return d;
  }

  function discriminantsMatch(t, v) {
    if (Array.isArray(v)) return true;
    for (const [name, values] of discriminants(t)) {
      const x = v[name];
      if (x !== undefined && x !== null && typeof x !== 'object' && !values.has(x)) return false;
    }
    return true;
  }

  const truncate = (s) => (s.length > 80 ? s.slice(0, 77) + '...' : s);

  function acceptsUndefined(t) {
    if (t.flags & (F.Undefined | F.Any | F.Unknown | F.Void)) return true;
    return (t.flags & F.Union) !== 0 && t.types.some((m) => m.flags & (F.Undefined | F.Void));
  }

  function walkUnion(v, t, p, out) {
    const members = t.types.filter((m) => !(m.flags & (F.Undefined | F.Void | F.Never)));
    if (members.some((m) => m.flags & (F.Any | F.Unknown))) return;
    if (v === null || typeof v !== 'object') {
      if (members.some((m) => !isObjectLike(m) && primitiveAccepts(m, v))) return;
      if (members.some((m) => isDate(m)) && typeof v === 'string') return;
      const lits = members.filter((m) => literalOf(m)[0]);
      const sameKind = lits.filter((m) => typeof literalOf(m)[1] === typeof v);
      if (v !== null && sameKind.length > 0 && lits.length === members.length) {
        out.push({ path: p, kind: 'enum', m: () => `${short(v)} is not one of ${lits.map((m) => JSON.stringify(literalOf(m)[1])).join(' | ')}` });
      } else {
        out.push({ path: p, kind: v === null ? 'null' : 'type', m: () => `got ${short(v)}, want ${truncate(str(t))}` });
      }
      return;
    }
    const objs = members.filter(isObjectLike);
    if (objs.length === 0) {
      out.push({ path: p, kind: 'type', m: () => `got ${describe(v)}, want ${truncate(str(t))}` });
      return;
    }
    const narrowed = objs.filter((m) => discriminantsMatch(m, v));
    let best = null;
    for (const m of narrowed.length > 0 ? narrowed : objs) {
      const errs = [];
      walk(v, m, p, errs);
      const hard = errs.filter((e) => e.kind !== 'undeclared').length;
      const score = [hard, errs.length - hard];
      if (!best || score[0] < best.score[0] || (score[0] === best.score[0] && score[1] < best.score[1])) {
        best = { errs, score };
      }
      if (score[0] === 0 && score[1] === 0) break;
    }
    out.push(...best.errs);
  }

  // walkWireString checks a path or query string against t, coercing it the
  // way a server parses it (numbers, booleans, literals).
  function walkWireString(s, t, p, out) {
    const members = t.flags & F.Union ? t.types : [t];
    const live = members.filter((m) => !(m.flags & (F.Undefined | F.Void | F.Never | F.Null)));
    for (const m of live) {
      if (m.flags & (F.Any | F.Unknown | F.String | F.TemplateLiteral)) return;
      const [isLit, lit] = literalOf(m);
      if (isLit && String(lit) === s) return;
      if (m.flags & F.Number && s.trim() !== '' && Number.isFinite(Number(s))) return;
      if (m.flags & F.Boolean && (s === 'true' || s === 'false')) return;
    }
    const lits = live.filter((m) => literalOf(m)[0]);
    if (lits.length > 0 && lits.length === live.length) {
      out.push({ path: p, kind: 'enum', m: () => `${JSON.stringify(s)} is not one of ${lits.map((m) => JSON.stringify(literalOf(m)[1])).join(' | ')}` });
    } else {
      out.push({ path: p, kind: 'type', m: () => `${JSON.stringify(s)} does not parse as ${truncate(str(t))}` });
    }
  }

  // walkQuery checks one query parameter's values (arrays repeat the key or
  // join values with commas).
  function walkQuery(values, t, p, out) {
    const members = t.flags & F.Union ? t.types : [t];
    const arr = members.find((m) => checker.isArrayType(m));
    if (arr) {
      const elem = checker.getTypeArguments(arr)[0];
      for (const v of values) for (const part of v.split(',')) walkWireString(part, elem, `${p}[]`, out);
      return;
    }
    if (values.length > 1) out.push({ path: p, kind: 'type', m: () => `repeated ${values.length} times, want one ${truncate(str(t))}` });
    walkWireString(values[0], t, p, out);
  }

  return { walk, walkQuery, walkWireString, str };
}

// ---------------------------------------------------------------------------
// request and response checks

function property(checker, t, name) {
  if (!t) return undefined;
  const sym = checker.getPropertyOfType(t, name);
  if (!sym) return undefined;
  let pt = checker.getTypeOfSymbol(sym);
  pt = checker.getNonNullableType(pt);
  return pt.flags & F.Never ? undefined : pt;
}

// deepObjectMember is the type of member key of an object-typed query
// parameter t (a declared property, else its string index), or undefined.
function deepObjectMember(checker, t, key) {
  if (!t) return undefined;
  const members = t.flags & F.Union ? t.types : [t];
  for (const m of members) {
    if (!(m.flags & F.Object) || checker.isArrayType(m)) continue;
    const sym = checker.getPropertyOfType(m, key);
    if (sym) return checker.getTypeOfSymbol(sym);
    const index = checker.getIndexInfosOfType(m).find((ii) => ii.keyType.flags & (F.String | F.TemplateLiteral));
    if (index) return index.type;
  }
  return undefined;
}

function checkRequest(rec, dataType, fb, ctx) {
  const { checker, walker } = ctx;
  const out = [];
  const pathT = property(checker, dataType, 'path');
  for (const [k, v] of Object.entries(rec.path_params || {})) {
    const pt = dataType ? property(checker, pathT, k) : fb.pathParams && fb.pathParams.get(k);
    if (pt) walker.walkWireString(v, pt, `path.${k}`, out);
    else if (pathT) out.push({ path: `path.${k}`, kind: 'undeclared', m: () => 'path parameter not declared' });
  }
  const queryT = property(checker, dataType, 'query');
  const query = rec.query || {};
  for (const [k, vs] of Object.entries(query)) {
    const qt = property(checker, queryT, k);
    if (!qt) {
      // deepObject style: name[key]=value is member key of the object
      // parameter name (toolkit_versions[github]=20250901_00)
      const deep = /^([^[\]]+)\[([^[\]]+)\]$/.exec(k);
      const mt = deep && deepObjectMember(checker, property(checker, queryT, deep[1]), deep[2]);
      if (mt) {
        walker.walkQuery(vs, mt, `query.${deep[1]}.${deep[2]}`, out);
        continue;
      }
      out.push({ path: `query.${k}`, kind: 'undeclared', m: () => 'query parameter not declared by the operation' });
      continue;
    }
    walker.walkQuery(vs, qt, `query.${k}`, out);
  }
  if (queryT) {
    for (const sym of checker.getPropertiesOfType(queryT)) {
      if (!(sym.flags & ts.SymbolFlags.Optional) && !(sym.getName() in query)) {
        out.push({ path: `query.${sym.getName()}`, kind: 'missing', m: () => 'required query parameter missing' });
      }
    }
  }
  if (rec.body !== undefined && rec.body !== null) {
    const bodyT = property(checker, dataType, 'body');
    if (!bodyT) out.push({ path: 'body', kind: 'undeclared', m: () => 'the operation takes no body' });
    else walker.walk(rec.body, bodyT, 'body', out);
  } else if (dataType) {
    const sym = checker.getPropertyOfType(dataType, 'body');
    if (sym && !(sym.flags & ts.SymbolFlags.Optional) && !(checker.getTypeOfSymbol(sym).flags & F.Never)) {
      out.push({ path: 'body', kind: 'missing', m: () => 'required body missing' });
    }
  }
  return out;
}

function responseType(checker, respType, status) {
  if (!respType) return undefined;
  const exact = checker.getPropertyOfType(respType, String(status));
  if (exact) return checker.getTypeOfSymbol(exact);
  return undefined;
}

function checkResponse(rec, respType, fb, ctx) {
  const { checker, walker } = ctx;
  const out = [];
  const t = respType ? responseType(checker, respType, rec.status) : fb.response;
  if (!t) {
    const declared = respType ? checker.getPropertiesOfType(respType).map((s) => s.getName()) : [];
    out.push({ path: '', kind: 'status', m: () => `status ${rec.status} is not a declared response (declared: ${declared.join(', ') || 'none'})` });
    return out;
  }
  walker.walk(rec.response, t, '', out);
  return out;
}

// makeChecker loads the operation table and the type program once and
// returns a function that checks an array of records.
async function makeChecker() {
  const ops = await loadOperations();
  const byOp = new Map(ops.map((o) => [o.operation, o]));
  const { checker, aliases, client } = loadTypes();
  const walker = makeWalker(checker);
  const ctx = { checker, walker };
  const fallbacks = new Map();
  const check = (records) => {
    const started = Date.now();
    const findings = [];
    for (const [i, rec] of records.entries()) {
      const op = byOp.get(rec.operation);
      if (!op) {
        findings.push({ record: i, direction: 'request', path: '', kind: 'operation', message: `unknown operation ${rec.operation}` });
        continue;
      }
      const data = aliases.get(op.name + 'Data');
      const resp = aliases.get(op.name + 'Responses');
      let fb = {};
      if (!(data && resp)) {
        if (!fallbacks.has(op.operation)) fallbacks.set(op.operation, fallbackTypes(checker, methodSignature(checker, client, op.operation)));
        fb = fallbacks.get(op.operation);
      }
      const reqErrs = checkRequest(rec, data, fb, ctx);
      for (const e of reqErrs) findings.push({ record: i, direction: 'request', path: e.path, kind: e.kind, message: e.m() });
      if (rec.status >= 200 && rec.status < 300 && rec.response !== undefined) {
        for (const e of checkResponse(rec, resp, fb, ctx)) findings.push({ record: i, direction: 'response', path: e.path, kind: e.kind, message: e.m() });
      }
    }
    return { findings, checked: records.length, ms: Date.now() - started };
  };
  const typed = ops.map((o) => ({
    operation: o.operation,
    data: aliases.has(o.name + 'Data'),
    responses: aliases.has(o.name + 'Responses'),
  }));
  return { check, typed };
}

async function runCheck(recordsFile, outFile) {
  const started = Date.now();
  const { check, typed } = await makeChecker();
  const out = check(JSON.parse(fs.readFileSync(recordsFile, 'utf8')));
  fs.writeFileSync(outFile, JSON.stringify({ ...out, operations: typed, ms: Date.now() - started }));
}

// serve answers on stdout, one line each, the lines of stdin: a JSON array
// of records in, {"findings", "checked", "ms"} (or {"error"}) out. The first
// line out is {"ready": true, "operations": [...the table...]} once the type
// program is loaded, so a test binary pays for it once.
async function serve() {
  const { check } = await makeChecker();
  process.stdout.write(JSON.stringify({ ready: true, operations: await loadOperations() }) + '\n');
  let buf = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim() === '') continue;
      let reply;
      try {
        reply = check(JSON.parse(line));
      } catch (e) {
        reply = { error: String((e && e.stack) || e) };
      }
      process.stdout.write(JSON.stringify(reply) + '\n');
    }
  });
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'ops') {
  process.stdout.write(JSON.stringify(await loadOperations()));
} else if (mode === 'check' && args.length === 2) {
  await runCheck(args[0], args[1]);
} else if (mode === 'serve') {
  await serve();
} else {
  process.stderr.write('usage: node check.mjs ops | check RECORDS OUT | serve\n');
  process.exit(2);
}
