// The settle-up page's Share button: the phone's own share sheet (the Web
// Share API) with the viewer link, else the link copied for a message. The
// link is on the page too, so without this file it is copied by hand.
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const button = document.getElementById("share");
  if (!button) return;
  const done = document.getElementById("share-done");
  const copied = () => { done.textContent = button.dataset.copied; };
  button.hidden = false;
  button.addEventListener("click", async () => {
    const url = button.dataset.url;
    if (navigator.share) {
      try {
        await navigator.share({title: button.dataset.title, url});
        return;
      } catch (err) {
        if (err.name === "AbortError") return;  // closed by its owner: nothing to do
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      copied();
    } catch (err) {
      const field = document.getElementById("share-url");
      field.select();
      if (document.execCommand("copy")) copied();
    }
  });
});
