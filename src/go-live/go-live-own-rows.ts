/**
 * The two rows of the go-live checklist that are not coverage rows: an older state arriving after
 * a newer one (a check of the receiver shows it), and credits read from the merchant's balance
 * probe (go-live --probe, or serve --probe). A module of its own, importing nothing, so that the
 * go-live page's browser script can tell them apart without bundling the checklist's schemas.
 */
export const GO_LIVE_OWN_ROW_IDS = ['callback.older_state', 'credits.checked'] as const;
export type GoLiveOwnRowId = (typeof GO_LIVE_OWN_ROW_IDS)[number];

export const isGoLiveOwnRow = (id: string): id is GoLiveOwnRowId => (GO_LIVE_OWN_ROW_IDS as readonly string[]).includes(id);
