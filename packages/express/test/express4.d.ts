// `express4` is the npm alias of Express 4 in devDependencies; its API is typed like Express's.
declare module 'express4' {
  import express from 'express';
  export default express;
}
