/** node-postgres's own value conversion (a Date, an array, a Buffer or an object to what it sends). */
declare module "pg/lib/utils" {
  const utils: { prepareValue: (value: unknown) => unknown };
  export default utils;
}
