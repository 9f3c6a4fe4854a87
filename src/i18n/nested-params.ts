/**
 * Parameters of a coded line that hold another coded line, said in place (a coverage detail,
 * then what the balance probe showed, then the advice). The line's parameters keep the inner
 * line's code under that name and its parameters beside their own, so a page says both in its
 * language (codedText() on the server, serverText() in the dashboard).
 */
export const NESTED_PARAMS = ['base', 'shows', 'advice'] as const;
