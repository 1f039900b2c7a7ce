/** The `id` the page's address names (`#/goods?id=…`): the item a page opens on. */
export const queryId = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('id');
