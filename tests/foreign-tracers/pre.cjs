require('./m.mjs');
