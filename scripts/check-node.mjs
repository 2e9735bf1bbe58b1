// Every npm script runs on the Node.js the repo brings (devDependency `node@22`); fail loudly if not.
const major = Number(process.versions.node.split('.')[0]);
console.log(`node ${process.version}`);
if (major < 22) {
  console.error(`Node.js >= 22 is required (got ${process.version}). Run through npm scripts so node_modules/.bin/node is used.`);
  process.exit(1);
}
