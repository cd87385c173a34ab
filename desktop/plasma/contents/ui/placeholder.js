// The one thing the widget cannot get from the service: what it shows while no service answers.
// Everything else it draws is the view the service publishes with the entry (panel-text, title,
// progress-text, new-pages-text, actions: docs/dbus-api.md, "The view"); this placeholder is the
// service's own placeholder view, the one view wording the widget keeps.
.pragma library

function entry() {
    return {
        "is-placeholder": true, "name": "A Really Strange Tournament!", "progress": 0, "image-path": "",
        "panel-text": "Read Multiverse Reader", "title": "Read Multiverse Reader", "progress-text": "",
        "new-pages-text": "", "actions": [{ "label": "Start reading", "action": "open-chapter", "parameter": 1 }]
    }
}
