// Runs on the comic's page-N.html pages: tells the background which page is being read.
"use strict";
(globalThis.browser ?? globalThis.chrome).runtime.sendMessage({ type: "page", url: location.href });
