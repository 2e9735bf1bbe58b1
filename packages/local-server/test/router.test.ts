/**
 * The route table: methods (and `*`), literal paths, `:name` segments (decoded) and a last
 * `*rest`, first match wins.
 */
import { describe, expect, it } from 'vitest';
import { Router } from '../src/http/router.js';

describe('Router', () => {
  const router = new Router<string>([
    { methods: ['GET'], path: '/api/public/scores/:id', handle: 'one' },
    { methods: ['POST'], path: '/api/public/scores', handle: 'post' },
    { methods: ['*'], path: '/api/public/scores', handle: 'any' },
    { methods: ['PATCH'], path: '/p/:name/versions/:version', handle: 'patch' },
    { methods: ['GET'], path: '/viewer-api/sessions/*id', handle: 'rest' },
  ]);
  const match = (method: string, path: string) => {
    const m = router.match(method, path);
    return m && [m.route.handle, m.params];
  };

  it('matches method and path in order, and decodes parameters', () => {
    expect(match('GET', '/api/public/scores/a%2Fb%20c')).toEqual(['one', { id: 'a/b c' }]);
    expect(match('GET', '/api/public/scores/%E0%A4%A')).toEqual(['one', { id: '%E0%A4%A' }]); // not valid: kept as sent
    expect(match('POST', '/api/public/scores')).toEqual(['post', {}]);
    expect(match('DELETE', '/api/public/scores')).toEqual(['any', {}]);
    expect(match('PATCH', '/p/greet/versions/2')).toEqual(['patch', { name: 'greet', version: '2' }]);
    expect(match('GET', '/viewer-api/sessions/a/b')).toEqual(['rest', { id: 'a/b' }]);
  });

  it('matches neither another method, nor a longer or shorter path, nor an empty segment', () => {
    expect(match('DELETE', '/api/public/scores/x')).toBeUndefined();
    expect(match('GET', '/api/public/scores/x/y')).toBeUndefined();
    expect(match('GET', '/api/public/scores/')).toBeUndefined();
    expect(match('PATCH', '/p/greet/versions')).toBeUndefined();
    expect(match('GET', '/api/public/scoresX')).toBeUndefined();
  });
});
