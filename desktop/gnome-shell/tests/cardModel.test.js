// The card's no-service placeholder (src/cardModel.js) under gjs, in both builds: the 43–44 one
// loaded by the legacy `imports` importer, the 45+ one as an ES module. It must be the service's own
// placeholder view, key for key (everything else the card draws comes from the service).
//
// gjs -m cardModel.test.js BUILD_43 BUILD_45 ENTRY_JSON
//     ENTRY_JSON: the service's placeholder as `dbmultiverse entry --format json` prints it. One
//     `ok`/`not ok` line per key and build, then `N passed, N failed`.
import System from 'system';

const [build43, build45, serviceJSON] = ARGV;
imports.searchPath.unshift(build43);
const styles = {'43': imports.cardModel, '45': await import(`file://${build45}/cardModel.js`)};
const service = JSON.parse(serviceJSON);

let passed = 0, failed = 0;
for (const [style, module] of Object.entries(styles)) {
    const placeholder = module.placeholderEntry();
    for (const key of Object.keys(placeholder)) {
        const [ours, theirs] = [JSON.stringify(placeholder[key]), JSON.stringify(service[key])];
        if (ours === theirs) {
            passed++;
            print(`ok ${style}: ${key}`);
        } else {
            failed++;
            print(`not ok ${style}: ${key}\n  the service: ${theirs}\n  the card:    ${ours}`);
        }
    }
}
print(`${passed} passed, ${failed} failed`);
System.exit(failed === 0 && passed > 0 ? 0 : 1);
