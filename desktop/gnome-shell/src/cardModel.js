// The one thing the card cannot get from the service: what it shows while no service answers.
// Everything else it draws is the view the service publishes with the entry (panel-text, title,
// progress-text, new-pages-text, actions: docs/dbus-api.md, "The view"); this placeholder is the
// service's own placeholder view, the one view wording the extension keeps. No St and no D-Bus
// here, so that gjs tests it outside the shell in both module styles. `_` is the extension's
// gettext (text domain dbmultiverse, the catalogues in its locale/ folder): the same messages as the
// service's, so the placeholder reads as the service's would in the session's language.
export function placeholderEntry(_ = text => text) {
    return {
        'is-placeholder': true, 'name': 'A Really Strange Tournament!', 'progress': 0, 'image-path': '',
        'panel-text': _('Read Multiverse Reader'), 'title': _('Read Multiverse Reader'), 'progress-text': '',
        'new-pages-text': '', 'actions': [{label: _('Start reading'), action: 'open-chapter', parameter: 1}],
    };
}
