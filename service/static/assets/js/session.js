// The API key lives in this tab's sessionStorage only: closing the tab signs out, other tabs never see it.

const KEY = "boundloop.apiKey";

export function savedKey() {
  return sessionStorage.getItem(KEY);
}

export function saveKey(key) {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey() {
  sessionStorage.removeItem(KEY);
}
