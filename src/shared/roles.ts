export const roles = ["super_admin", "admin", "user"] as const;
export type Role = (typeof roles)[number];
