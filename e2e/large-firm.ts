/** The large firm e2e/prepare-data-dir.ts writes beside the demo firm; its `user` has 25 clients. */
export const largeFirm = {
  size: { clients: 10_000, tasks: 100_000 },
  logins: {
    superAdmin: { username: "large.owner", password: "tendwell-large-firm" },
    user: { username: "large.staff", password: "tendwell-large-firm" },
  },
} as const;
