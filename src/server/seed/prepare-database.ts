import type { Logger } from "pino";
import { syncBlogPosts } from "../features/blog/blog-content";
import { connectDatabase } from "../platform/db/database";
import { migrateDatabase } from "../platform/db/migrate";
import { grantAppRole, userOf } from "../platform/db/roles";
import { projectPaths } from "../platform/paths";
import { seedDemoData } from "./demo-seed";

/**
 * What a database needs before the app serves from it, all done as the role that owns the tables
 * (decision 0033): the migrations, the app role's grants, the blog's articles from content/blog,
 * and the demo firm when asked for on an empty database. The app's start runs it when it has the
 * owner's URL (always on the embedded database); so does the migrate step, `npm run db:migrate`.
 */
export async function prepareDatabase(options: {
  ownerUrl: string;
  appUrl: string;
  seedDemoData: boolean;
  log: Pick<Logger, "info">;
}): Promise<void> {
  const { ownerUrl, appUrl, log } = options;
  await migrateDatabase(ownerUrl);
  if (userOf(ownerUrl) !== userOf(appUrl)) await grantAppRole(ownerUrl, userOf(appUrl));
  const owner = connectDatabase({ url: ownerUrl, poolSize: 1 });
  try {
    if (options.seedDemoData && (await seedDemoData(owner.db, { onlyIfEmpty: true }))) {
      log.info("Created the demo firm on the empty database");
    }
    const blog = await syncBlogPosts(owner.db, projectPaths.blogContent);
    log.info(blog, "Blog posts synced from content/blog");
  } finally {
    await owner.close();
  }
}
