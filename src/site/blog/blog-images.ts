import { blogImagePattern } from "../../shared/blog-text";

/*
 * A post's featuredImage is a file name in content/blog/images (S-BLIST-13); the server
 * serves those files under blogImagesPath (src/server/features/blog/blog-images.routes.ts). A name that
 * cannot be a bundled image's gets the default image here; a well-formed name with no file gets
 * it from the server, so an image always shows (S-BLIST-13, docs/design/blog-screens.md).
 */

export const blogImagesPath = "/blog-images";
export const defaultBlogImage = "default.svg";

/** The path of a post's featured image on this site. */
export function blogImageUrl(featuredImage: string): string {
  const name = blogImagePattern.test(featuredImage) ? featuredImage : defaultBlogImage;
  return `${blogImagesPath}/${name}`;
}

/**
 * The picture link previews show for a post: social networks do not render SVG, so an SVG's
 * 1200 x 630 PNG twin beside it (written by `npm run blog:social-images`); other images as they are.
 */
export function socialImageName(featuredImage: string): string {
  const name = blogImagePattern.test(featuredImage) ? featuredImage : defaultBlogImage;
  return name.replace(/\.svg$/i, ".png");
}

/** The path of that picture on this site. */
export function socialImageUrl(featuredImage: string): string {
  return `${blogImagesPath}/${socialImageName(featuredImage)}`;
}

/** That picture as an absolute URL, for structured data. */
export function absoluteSocialImageUrl(origin: string, featuredImage: string): string {
  return `${origin.replace(/\/+$/, "")}${socialImageUrl(featuredImage)}`;
}
