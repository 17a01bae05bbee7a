import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project folder, found by walking up to package.json. This works both from the sources
 * (tests, `npm run dev`) and from the bundled server in dist/.
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("Cannot find the project folder (no package.json above the server code)");
    dir = parent;
  }
  return dir;
}

const root = findProjectRoot();

export const projectPaths = {
  root,
  migrations: path.join(root, "src", "server", "platform", "db", "migrations"),
  clientBuild: path.join(root, "dist", "client"),
  /** The vendor's blog posts and their images (docs/design/blog-content.md); read at start, also from dist/. */
  blogContent: path.join(root, "content", "blog"),
  /** The blog's bundled images, served under /blog-images (docs/design/blog-screens.md). */
  blogImages: path.join(root, "content", "blog", "images"),
};
