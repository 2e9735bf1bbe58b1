/**
 * Root observation names: `METHOD /route/:param` from the matched pattern, through nested
 * routers, mount paths with parameters and mounted sub-apps, on Express 4 and 5; requests no
 * route answered are named honestly.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { obsMiddleware, UNMATCHED } from '../src/index.js';
import { EXPRESS_VERSIONS, traceOf, initTestObs, setupObsServer, type Express } from './harness.js';

const h = setupObsServer({ init: initTestObs });

function buildApp(express: Express, major: 4 | 5) {
  const app = express();
  app.use(obsMiddleware());
  app.get('/chat/:id', (_req, res) => {
    res.json({ ok: true });
  });
  app.route('/items/:itemId').get((_req, res) => {
    res.send('item');
  });

  // Nested routers, with a parameter in a mount path (mergeParams).
  const posts = express.Router({ mergeParams: true });
  posts.get('/:postId', (req, res) => {
    res.json({ params: req.params });
  });
  posts.get('/', (_req, res) => {
    res.json([]);
  });
  const users = express.Router();
  users.use('/:userId/posts', posts);
  users.get('/:userId', (_req, res) => {
    res.send('user');
  });
  const api = express.Router();
  api.use('/users', users);
  app.use('/api/v1', api);

  // A sub-app mounted under a parameterised path, with its own router inside.
  const admin = express();
  const reports = express.Router();
  reports.get('/:reportId', (_req, res) => {
    res.send('report');
  });
  admin.use('/reports', reports);
  admin.get('/settings', (_req, res) => {
    res.send('settings');
  });
  app.use('/tenants/:tenant/admin', admin);

  // The same router mounted twice: the prefix comes from the mount the request went through.
  const shared = express.Router();
  shared.get('/thing/:n', (_req, res) => {
    res.send('thing');
  });
  app.use('/left', shared);
  app.use('/right/:side', shared);

  // A route-level middleware on every path, then the route that answers: the answering one names it.
  app.all(major === 5 ? '/multi/*rest' : '/multi/*', (_req, _res, next) => next());
  app.get('/multi/:x/end', (_req, res) => {
    res.send('multi');
  });

  // Wildcards in each version's syntax, and a RegExp route.
  app.get(major === 5 ? '/files/*filepath' : '/files/*', (_req, res) => {
    res.send('file');
  });
  app.get(/^\/re\/(\d+)$/, (_req, res) => {
    res.send('re');
  });

  // Middleware mounted at a path, answering without any route (GraphQL-style).
  app.use('/graphql', (req, res) => {
    res.json({ data: { path: req.path } });
  });
  return app;
}

describe.each(EXPRESS_VERSIONS)('route naming on $name', ({ express, major }) => {
  const app = buildApp(express, major);

  const cases: Array<[string, string, string]> = [
    ['GET', '/chat/42', 'GET /chat/:id'],
    ['GET', '/chat/42?x=1', 'GET /chat/:id'],
    ['GET', '/items/7', 'GET /items/:itemId'],
    ['GET', '/api/v1/users/5', 'GET /api/v1/users/:userId'],
    ['GET', '/api/v1/users/5/posts/9', 'GET /api/v1/users/:userId/posts/:postId'],
    ['GET', '/api/v1/users/5/posts', 'GET /api/v1/users/:userId/posts'],
    ['GET', '/tenants/acme/admin/reports/r1', 'GET /tenants/:tenant/admin/reports/:reportId'],
    ['GET', '/tenants/acme/admin/settings', 'GET /tenants/:tenant/admin/settings'],
    ['GET', '/left/thing/1', 'GET /left/thing/:n'],
    ['GET', '/right/east/thing/2', 'GET /right/:side/thing/:n'],
    ['GET', '/multi/a/end', 'GET /multi/:x/end'],
    ['GET', '/files/a/b/c.txt', major === 5 ? 'GET /files/*filepath' : 'GET /files/*'],
    ['GET', '/re/12', 'GET /^\\/re\\/(\\d+)$/'],
    ['POST', '/graphql', 'POST /graphql'],
  ];

  it.each(cases)('%s %s is named %s', async (method, url, name) => {
    const res = await request(app)[method.toLowerCase() as 'get' | 'post'](url);
    expect(res.status).toBe(200);
    const { root } = await traceOf(h, res);
    expect(root.name).toBe(name);
    expect(root.attributes['obs.trace.name']).toBe(name);
    const route = name.slice(name.indexOf(' ') + 1);
    expect(root.attributes['http.route']).toBe(route);
    expect(root.attributes['http.request.method']).toBe(method);
    expect(root.attributes['url.path']).toBe(url.split('?')[0]);
    expect(root.attributes['http.response.status_code']).toBe(200);
    expect(root.attributes['obs.observation.type']).toBe('span');
    // Never the raw URL when it has values in it.
    if (/\d/.test(url) && !name.includes('(')) expect(root.name).not.toContain(url.split('?')[0]);
  });

  it('names a request no route matched "<unmatched>", with its status and without http.route', async () => {
    const res = await request(app).get('/nope/123');
    expect(res.status).toBe(404);
    const { root } = await traceOf(h, res);
    expect(root.name).toBe(`GET ${UNMATCHED}`);
    expect(root.attributes['obs.trace.name']).toBe(`GET ${UNMATCHED}`);
    expect(root.attributes['http.route']).toBeUndefined();
    expect(root.attributes['url.path']).toBe('/nope/123');
    expect(root.attributes['http.response.status_code']).toBe(404);
  });

  it('names a 404 inside a mounted router "<unmatched>" too', async () => {
    const res = await request(app).get('/api/v1/users/5/unknown/deeper');
    expect(res.status).toBe(404);
    const { root } = await traceOf(h, res);
    expect(root.name).toBe(`GET ${UNMATCHED}`);
  });

  it('keeps a custom name(req) and still records the route', async () => {
    const custom = express();
    custom.use(obsMiddleware({ name: (req) => `custom ${req.method}` }));
    custom.get('/c/:id', (_req, res) => {
      res.send('c');
    });
    const res = await request(custom).get('/c/1');
    const { root } = await traceOf(h, res);
    expect(root.name).toBe('custom GET');
    expect(root.attributes['http.route']).toBe('/c/:id');
  });

  it('names the route when obsMiddleware sits in a router rather than the app', async () => {
    const nested = express();
    const r = express.Router();
    r.use(obsMiddleware());
    r.get('/deep/:id', (_req, res) => {
      res.send('deep');
    });
    nested.use('/v2', r);
    const res = await request(nested).get('/v2/deep/3');
    const { root } = await traceOf(h, res);
    expect(root.name).toBe('GET /v2/deep/:id');
  });
});
