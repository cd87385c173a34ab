// What the card shows for an entry (DESIGN §15), as plain data: no St and no D-Bus here, so that
// gjs tests it outside the shell in both module styles. Every number and every choice (the next
// chapter, the first unread page, the deep link) comes from the entry the service publishes; this
// module only words them.

// The entry while no service answers: what the service publishes before anything is read.
export function placeholderEntry() {
    return {'is-placeholder': true, 'chapter': 1, 'progress': 0, 'new-pages': 0};
}

// The small rendering, as `dbmultiverse entry --family small` prints it (DESIGN §4, §13).
export function panelText(entry) {
    if (entry['is-placeholder'])
        return 'Read Multiverse Reader';
    const newPages = entry['new-pages'] ?? 0;
    return `Ch. ${entry.chapter} \u00B7 ${entry.progress}%${newPages > 0 ? ` \u00B7 ${newPages} new` : ''}`;
}

// The card for an entry (an a{sv} unpacked to a plain object; null or undefined while no
// service answers): its texts, and its buttons top to bottom. A button opens either `uri`
// (org.freedesktop.Application.Open) or `action` with an optional int32 `parameter`
// (ActivateAction), the paths the tray menu uses.
export function cardModel(entry) {
    entry = entry ?? placeholderEntry();
    if (entry['is-placeholder']) {
        return {
            isPlaceholder: true,
            panelText: panelText(entry),
            text: 'Read Multiverse Reader \u2014 start with Chapter 1',
            coverPath: '',
            buttons: [{label: 'Start reading', action: 'open-chapter', parameter: 1}],
        };
    }
    const universe = entry.universe ?? 0;
    const newPages = entry['new-pages'] ?? 0;
    const nextChapter = entry['next-chapter'] ?? 0;
    const firstUnreadPage = entry['first-unread-page'] ?? 0;
    const deepLink = entry['deep-link'] ?? '';
    const buttons = [deepLink
        ? {label: 'Continue reading', uri: deepLink}
        : {label: 'Continue reading', action: 'open-current'}];
    if (nextChapter > 0)
        buttons.push({label: 'Next chapter', action: 'open-chapter', parameter: nextChapter});
    if (firstUnreadPage > 0)
        buttons.push({label: 'Read new pages', action: 'open-page', parameter: firstUnreadPage});
    buttons.push({label: 'Chapter list', action: 'open-chapter-list'});
    return {
        isPlaceholder: false,
        panelText: panelText(entry),
        // A special numbers its chapters from 1 again: its title names the universe.
        title: universe > 0 ? `Special Universe ${universe} \u00B7 Chapter ${entry.chapter}` : `Chapter ${entry.chapter}`,
        name: entry.name ?? '',
        progress: Math.min(Math.max(entry.progress, 0), 100) / 100,
        progressText: `${entry.progress}% read`,
        newPagesText: newPages > 0 ? `${newPages} new ${newPages === 1 ? 'page' : 'pages'}` : '',
        coverPath: entry['image-path'] ?? '',
        buttons,
    };
}
