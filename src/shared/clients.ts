export const clientStatuses = ["active", "inactive", "prospect"] as const;
export type ClientStatus = (typeof clientStatuses)[number];
