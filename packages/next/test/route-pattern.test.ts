import { describe, expect, it } from 'vitest';
import { controlFlowStatus } from '../src/errors.js';
import { routeFromParams, routeFromRoutePath } from '../src/route-pattern.js';

describe('routeFromParams', () => {
  it('puts dynamic segment names back in place of their values', () => {
    expect(routeFromParams('/api/chat/42', { id: '42' })).toBe('/api/chat/[id]');
    expect(routeFromParams('/shop/books/9', { category: 'books', item: '9' })).toBe('/shop/[category]/[item]');
  });

  it('matches from the end, so equal values go to the right names', () => {
    expect(routeFromParams('/a/1/b/1', { x: '1', y: '1' })).toBe('/a/[x]/b/[y]');
    expect(routeFromParams('/chat/chat', { id: 'chat' })).toBe('/chat/[id]');
  });

  it('compares decoded values and folds catch-all segments', () => {
    expect(routeFromParams('/docs/hello%20world', { slug: 'hello world' })).toBe('/docs/[slug]');
    expect(routeFromParams('/docs/a/b/c', { slug: ['a', 'b', 'c'] })).toBe('/docs/[...slug]');
  });

  it('leaves static paths and unknown values alone', () => {
    expect(routeFromParams('/api/stream', undefined)).toBe('/api/stream');
    expect(routeFromParams('/api/stream', {})).toBe('/api/stream');
    expect(routeFromParams('/api/x', { id: 'nope' })).toBe('/api/x');
  });
});

describe('routeFromRoutePath', () => {
  it('drops the file name, route groups and parallel-route slots', () => {
    expect(routeFromRoutePath('/api/fail')).toBe('/api/fail');
    expect(routeFromRoutePath('/blog/[slug]/page')).toBe('/blog/[slug]');
    expect(routeFromRoutePath('/(shop)/cart/@modal/page')).toBe('/cart');
    expect(routeFromRoutePath('/page')).toBe('/');
    expect(routeFromRoutePath(undefined)).toBeUndefined();
  });
});

describe('controlFlowStatus', () => {
  it("reads the status of Next's redirect and not-found throws, and ignores real errors", () => {
    expect(controlFlowStatus({ digest: 'NEXT_REDIRECT;replace;/login?a=1;b;307;' })).toBe(307);
    expect(controlFlowStatus({ digest: 'NEXT_REDIRECT;push;/x;308;' })).toBe(308);
    expect(controlFlowStatus({ digest: 'NEXT_HTTP_ERROR_FALLBACK;404' })).toBe(404);
    expect(controlFlowStatus({ digest: 'NEXT_HTTP_ERROR_FALLBACK;403' })).toBe(403);
    expect(controlFlowStatus(new Error('boom'))).toBeUndefined();
    expect(controlFlowStatus({ digest: '3244229088' })).toBeUndefined();
  });
});
