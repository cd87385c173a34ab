// The one thing the widget cannot get from the service: what it shows while no service answers.
// Everything else it draws is the view the service publishes with the entry (panel-text, title,
// progress-text, new-pages-text, actions: docs/dbus-api.md, "The view"); this placeholder is the
// service's own placeholder view, the one view wording the widget keeps.
// translate: the widget's i18n (a library script cannot reach it; text domain
// plasma_applet_com.nobadi.dbmultiverse, contents/locale/: the service's messages, so the
// placeholder reads as the service's would in the session's language); none under qmltestrunner.
.pragma library

function entry(translate) {
    var i18n = translate || function (text) { return text }
    return {
        "is-placeholder": true, "name": "A Really Strange Tournament!", "progress": 0, "image-path": "",
        "panel-text": i18n("Read Multiverse Reader"), "title": i18n("Read Multiverse Reader"), "progress-text": "",
        "new-pages-text": "", "actions": [{ "label": i18n("Start reading"), "action": "open-chapter", "parameter": 1 }]
    }
}
