// The baseline: an empty ES module (Node.js's start-up and its ESM loader, nothing else).
