// The settle-up page's Share button: the phone's own share sheet (the Web
// Share API) with the viewer link, else the link copied for a message. The
// link is on the page too, so without this file it is copied by hand. The
// page may be swapped in place (live.js): the button is found at each click.
"use strict";

const showShare = () => {
  const button = document.getElementById("share");
  if (button) button.hidden = false;
};
document.addEventListener("DOMContentLoaded", showShare);
document.addEventListener("tonk:refreshed", showShare);

document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("#share") : null;
  if (!button) return;
  const url = button.dataset.url;
  const copied = () => {
    document.getElementById("share-done").textContent = button.dataset.copied;
  };
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
