/** Values a boolean environment variable uses for "off": 0 / false / no / off / empty (any case, spaces around). */
const OFF = /^(0|false|no|off)?$/i;

/** Whether a boolean variable's value says off (DEPOSIT_SANDBOX_IN_MEMORY=0, DEPOSIT_SANDBOX_IN_CONTAINER=false). */
export const saysOff = (value: string): boolean => OFF.test(value.trim());
