// The card's model (src/cardModel.js) under gjs, in both builds: the 43–44 one loaded by the
// legacy `imports` importer, the 45+ one as an ES module. The expected texts are DESIGN §4, §13
// and §15's; CardModelTests also compares panelText with `dbmultiverse entry --family small`.
//
// gjs -m cardModel.test.js BUILD_43 BUILD_45
//     runs the cases against both builds: one `ok`/`not ok` line each, then `N passed, N failed`.
// gjs -m cardModel.test.js BUILD_43 BUILD_45 --panel-text JSON
//     prints `43: TEXT` and `45: TEXT`, the panel text of an entry as `dbmultiverse entry
//     --format json` prints it.
import System from 'system';

const [build43, build45, mode, argument] = ARGV;
imports.searchPath.unshift(build43);
const styles = {'43': imports.cardModel, '45': await import(`file://${build45}/cardModel.js`)};

if (mode === '--panel-text') {
    for (const [style, model] of Object.entries(styles))
        print(`${style}: ${model.panelText(JSON.parse(argument))}`);
    System.exit(0);
}

// The service's entries (DESIGN §4's keys) for the cases below.
const placeholder = {
    'chapter': 1, 'name': 'A Really Strange Tournament!', 'progress': 0, 'image-path': '',
    'deep-link': 'dbmultiverse://chapter/1', 'date': 1795323865, 'family': 'medium',
    'is-placeholder': true, 'universe': 0, 'latest-page': 0, 'new-pages': 0, 'next-chapter': 0,
    'first-unread-page': 0,
};
const chapter42 = {
    ...placeholder, 'chapter': 42, 'name': 'Vegeta & <Goku>', 'progress': 35,
    'image-path': '/home/reader/.local/share/dbmultiverse/chapterCoverImage.jpg',
    'deep-link': 'dbmultiverse://chapter/42', 'is-placeholder': false, 'next-chapter': 43,
};
const withNewPages = {...chapter42, 'latest-page': 983, 'new-pages': 3, 'first-unread-page': 981};
const special = {
    ...chapter42, 'chapter': 2, 'name': 'Special', 'universe': 3, 'deep-link': 'dbmultiverse://page/1234',
    'next-chapter': 0,
};

const placeholderCard = {
    isPlaceholder: true,
    panelText: 'Read Multiverse Reader',
    text: 'Read Multiverse Reader \u2014 start with Chapter 1',
    coverPath: '',
    buttons: [{label: 'Start reading', action: 'open-chapter', parameter: 1}],
};

const cases = [
    ['no service: the placeholder', m => m.cardModel(null), placeholderCard],
    ['the service\'s placeholder', m => m.cardModel(placeholder), placeholderCard],
    ['panel text of the placeholder', m => m.panelText(placeholder), 'Read Multiverse Reader'],
    ['panel text of chapter 42', m => m.panelText(chapter42), 'Ch. 42 \u00B7 35%'],
    ['panel text with new pages', m => m.panelText(withNewPages), 'Ch. 42 \u00B7 35% \u00B7 3 new'],
    ['chapter 42: its card', m => m.cardModel(chapter42), {
        isPlaceholder: false,
        panelText: 'Ch. 42 \u00B7 35%',
        title: 'Chapter 42',
        name: 'Vegeta & <Goku>',
        progress: 0.35,
        progressText: '35% read',
        newPagesText: '',
        coverPath: '/home/reader/.local/share/dbmultiverse/chapterCoverImage.jpg',
        buttons: [
            {label: 'Continue reading', uri: 'dbmultiverse://chapter/42'},
            {label: 'Next chapter', action: 'open-chapter', parameter: 43},
            {label: 'Chapter list', action: 'open-chapter-list'},
        ],
    }],
    ['new pages: their line and Read new pages (the service\'s first unread page)',
        m => {
            const card = m.cardModel(withNewPages);
            return [card.newPagesText, card.buttons.map(b => b.label), card.buttons[2]];
        },
        ['3 new pages', ['Continue reading', 'Next chapter', 'Read new pages', 'Chapter list'],
            {label: 'Read new pages', action: 'open-page', parameter: 981}]],
    ['one new page', m => m.cardModel({...withNewPages, 'new-pages': 1, 'first-unread-page': 983}).newPagesText,
        '1 new page'],
    ['a special names its universe, opens its page link, has no next chapter',
        m => {
            const card = m.cardModel(special);
            return [card.title, card.buttons];
        },
        ['Special Universe 3 \u00B7 Chapter 2', [
            {label: 'Continue reading', uri: 'dbmultiverse://page/1234'},
            {label: 'Chapter list', action: 'open-chapter-list'},
        ]]],
    ['the last chapter, finished: no next chapter',
        m => {
            const card = m.cardModel({...chapter42, 'chapter': 99999, 'progress': 100, 'next-chapter': 0,
                'deep-link': 'dbmultiverse://chapter/99999'});
            return [card.panelText, card.progress, card.progressText, card.buttons.map(b => b.label)];
        },
        ['Ch. 99999 \u00B7 100%', 1, '100% read', ['Continue reading', 'Chapter list']]],
    ['a service without the cards\' keys (before next-chapter): no Next chapter, no Read new pages',
        m => {
            const older = {...chapter42};
            delete older['next-chapter'];
            delete older['first-unread-page'];
            return m.cardModel(older).buttons.map(b => b.label);
        },
        ['Continue reading', 'Chapter list']],
];

let passed = 0, failed = 0;
for (const [style, model] of Object.entries(styles)) {
    for (const [name, run, expected] of cases) {
        let actual;
        try {
            actual = JSON.stringify(run(model));
        } catch (error) {
            actual = `threw ${error}`;
        }
        if (actual === JSON.stringify(expected)) {
            passed++;
            print(`ok ${style}: ${name}`);
        } else {
            failed++;
            print(`not ok ${style}: ${name}\n  expected ${JSON.stringify(expected)}\n  got      ${actual}`);
        }
    }
}
print(`${passed} passed, ${failed} failed`);
System.exit(failed === 0 ? 0 : 1);
