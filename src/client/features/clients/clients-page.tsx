/** Issue 8 part B builds this page; until then the shell shows its title and nothing else. */
export function ClientsPage() {
  return null;
}
