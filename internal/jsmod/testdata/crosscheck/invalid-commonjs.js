const path = require('node:path');
if (!module.parent) {
  return;
}
module.exports = { dir: path.dirname(__filename) };
