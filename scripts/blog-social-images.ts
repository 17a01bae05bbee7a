import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { socialImageName } from "../src/site/blog/blog-images";
import { projectRoot } from "./built-app";

/*
 * Link previews for the blog (docs/design/blog-screens.md): social networks do not show SVG, so each SVG in
 * content/blog/images gets a 1200 x 630 PNG twin beside it (socialImageName), which the pages'
 * og:image and twitter:image name. The PNGs are committed; run this after adding or changing an
 * article's SVG: npm run blog:social-images. A test checks every SVG has its twin at that size.
 */

const imagesDir = path.join(projectRoot, "content", "blog", "images");
const size = { width: 1200, height: 630 } as const;

const svgs = fs.readdirSync(imagesDir).filter((name) => name.toLowerCase().endsWith(".svg"));
for (const name of svgs) {
  const svg = fs.readFileSync(path.join(imagesDir, name));
  // Drawn at twice the density and scaled down, so thin strokes and text stay crisp; the flat
  // illustrations fit a 256-colour palette, which keeps the files small.
  const png = await sharp(svg, { density: 144 })
    .resize(size.width, size.height, { fit: "cover" })
    .flatten({ background: "#ffffff" })
    .png({ palette: true, quality: 90, compressionLevel: 9, effort: 10 })
    .toBuffer();
  const out = socialImageName(name);
  fs.writeFileSync(path.join(imagesDir, out), png);
  console.log(`${out}: ${(png.length / 1024).toFixed(1)} KB`);
}
