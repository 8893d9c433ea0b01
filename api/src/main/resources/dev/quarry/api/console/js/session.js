// The signed-in token lives in this tab's session storage only: never in a URL, a cookie or
// local storage, so it goes away with the tab and never reaches another origin or a log.
const KEY = 'quarry.token';

export function token() {
  return sessionStorage.getItem(KEY);
}

export function remember(value) {
  sessionStorage.setItem(KEY, value);
}

export function forget() {
  sessionStorage.removeItem(KEY);
}
