/** Koa 2 under its alias (`koa2: npm:koa@^2`): the same API as the `koa` types describe for the tests' use. */
declare module 'koa2' {
  import Koa from 'koa';
  export default Koa;
}
