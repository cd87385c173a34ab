// Relays the page a content script reports to the native messaging host, which stores it for the
// desktop widget. No state outside the handler: this runs as a short-lived MV3 service worker
// (Chromium) or event page (Firefox), restarted for each message.
"use strict";
const api = globalThis.browser ?? globalThis.chrome;

api.runtime.onMessage.addListener((message, sender) => {
  if (sender.id !== api.runtime.id || message?.type !== "page" || typeof message.url !== "string") {
    return;
  }
  api.runtime.sendNativeMessage("com.nobadi.dbmultiverse", { type: "page", url: message.url }).then(
    (reply) => {
      if (reply?.ok === true) {
        console.info(`dbmultiverse: ${reply.language} page ${reply.page}: chapter ${reply.chapter}, ${reply.progress}%`);
      } else {
        console.warn(`dbmultiverse: ${message.url}: ${reply?.error ?? "no reply"}`);
      }
    },
    (error) => console.warn(`dbmultiverse: ${message.url}: ${error.message}`)
  );
});
