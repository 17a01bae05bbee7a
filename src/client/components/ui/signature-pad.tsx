import { type ComponentProps, type Ref, useEffect, useImperativeHandle, useRef } from "react";
import SignaturePadEngine from "signature_pad";
import { cn } from "../../lib/cn";

/** S-CONST-34..35: the pad is 400 by 128 pixels and draws a black line 2 pixels wide. */
export const signaturePadSize = { width: 400, height: 128 } as const;
const penWidth = 2;
/**
 * Sharp on high-density screens, but bounded: the server refuses a signature wider than 2,048
 * pixels (src/server/features/tasks/signature.ts), and 400 x 4 = 1,600 stays well inside that.
 */
const maxPixelRatio = 4;

export type SignaturePadHandle = {
  isEmpty(): boolean;
  /** The drawing as a PNG data URL: black ink on white paper, 400 x 128 times the pixel ratio. */
  toDataURL(): string;
  clear(): void;
};

type SignaturePadProps = Omit<ComponentProps<"canvas">, "ref" | "width" | "height"> & {
  ref?: Ref<SignaturePadHandle>;
  /** Called when a stroke ends, so a form can drop a "please sign" message. */
  onStrokeEnd?: () => void;
};

/**
 * A drawn signature, by mouse, touch or pen (signature_pad, on pointer events).
 *
 * The drawing is always 400 x 128 pad units with a 2-unit black pen, whatever the screen: the
 * canvas holds 400 x 128 times the device pixel ratio, so the exported PNG is sharp. Where the
 * pad has room it is shown at 400 x 128 CSS pixels; on a narrower screen (a 375 px phone) it is
 * shown scaled down to the width there is, and the pen is scaled with it, so what is signed there
 * is the same 400 x 128 image with the same 2-pixel line.
 */
export function SignaturePad({ ref, onStrokeEnd, className, style, ...props }: SignaturePadProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePadEngine | null>(null);
  const onStrokeEndRef = useRef(onStrokeEnd);
  onStrokeEndRef.current = onStrokeEnd;

  useEffect(() => {
    const canvas = canvasRef.current;
    const context = canvas?.getContext("2d");
    if (!canvas || !context) return;
    const ratio = Math.min(Math.max(window.devicePixelRatio || 1, 1), maxPixelRatio);
    canvas.width = Math.round(signaturePadSize.width * ratio);
    canvas.height = Math.round(signaturePadSize.height * ratio);
    const pad = new SignaturePadEngine(canvas, { penColor: "#000000", backgroundColor: "#ffffff" });
    padRef.current = pad;

    // signature_pad takes points in displayed CSS pixels and its "width" is a radius. Mapping
    // displayed pixels onto the canvas, and the pen's radius onto one pad unit, keeps both fixed.
    const fitPen = () => {
      const shown = canvas.getBoundingClientRect().width || signaturePadSize.width;
      const scale = canvas.width / shown;
      context.setTransform(scale, 0, 0, scale, 0, 0);
      const radius = ((penWidth / 2) * shown) / signaturePadSize.width;
      pad.minWidth = radius;
      pad.maxWidth = radius;
      pad.dotSize = radius;
    };
    fitPen();
    // Clearing after the first fit paints the white paper over the whole canvas.
    pad.clear();
    const endStroke = () => onStrokeEndRef.current?.();
    pad.addEventListener("endStroke", endStroke);
    const observer = new ResizeObserver(fitPen);
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      pad.removeEventListener("endStroke", endStroke);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      isEmpty: () => padRef.current?.isEmpty() ?? true,
      toDataURL: () => padRef.current?.toDataURL("image/png") ?? "",
      clear: () => padRef.current?.clear(),
    }),
    [],
  );

  // The border sits on a wrapper: signature_pad measures points from the canvas's outer edge, so
  // a border on the canvas itself would shift every stroke by its width. The paper is white
  // whatever the theme, because it is part of the signed image.
  return (
    <div
      className={cn("w-full overflow-hidden rounded-md border border-input bg-white", className)}
      // 400 CSS pixels of canvas plus the 1 px border on each side.
      style={{ maxWidth: signaturePadSize.width + 2 }}
    >
      <canvas
        ref={canvasRef}
        className="block h-auto w-full cursor-crosshair"
        style={{ aspectRatio: `${signaturePadSize.width} / ${signaturePadSize.height}`, ...style }}
        {...props}
      />
    </div>
  );
}
