import { blogImagePattern } from "../../shared/blog-text";

/*
 * A post's featuredImage is a file name in content/blog/images (spec section 3); the server
 * serves those files under blogImagesPath (src/server/blog/blog-images.routes.ts). A name that
 * cannot be a bundled image's gets the default image here; a well-formed name with no file gets
 * it from the server, so an image always shows (S-BLIST-13, decision 0023).
 */

export const blogImagesPath = "/blog-images";
export const defaultBlogImage = "default.svg";

/** The path of a post's featured image on this site. */
export function blogImageUrl(featuredImage: string): string {
  const name = blogImagePattern.test(featuredImage) ? featuredImage : defaultBlogImage;
  return `${blogImagesPath}/${name}`;
}

/** The same image as an absolute URL, for social cards and structured data. */
export function absoluteBlogImageUrl(origin: string, featuredImage: string): string {
  return `${origin.replace(/\/+$/, "")}${blogImageUrl(featuredImage)}`;
}
