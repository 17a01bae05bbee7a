import { Maximize2, Pause, Play, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cx } from "../ui";
import {
  carouselImageSizes,
  type ScreenshotName,
  screenshotHeight,
  screenshotSrc,
  screenshotSrcSet,
  screenshotWidth,
} from "./screenshots";

/** S-CONST-41: the hero carousel advances every 8 seconds. */
export const carouselIntervalMs = 8000;

export const carouselSlides: { name: ScreenshotName; title: string; alt: string }[] = [
  {
    name: "client-management",
    title: "Client management",
    alt: "Tendwell's client management screen: client cards with health, owner and open tasks",
  },
  {
    name: "dashboard",
    title: "Dashboard",
    alt: "Tendwell's dashboard: client health, overdue work and completion rates at a glance",
  },
  {
    name: "tasks",
    title: "Tasks",
    alt: "Tendwell's task list: recurring and one-time work with due dates, priorities and assignees",
  },
  {
    name: "relationship-hub",
    title: "Relationship hub",
    alt: "Tendwell's relationship hub: one client's contacts, work history and signed records",
  },
];

type Position = "front" | "next" | "previous" | "hidden";

const positionStyle: Record<Position, string> = {
  front: "translate(-50%, 0) scale(1)",
  next: "translate(-24.4%, 5%) scale(0.85)",
  previous: "translate(-75.6%, 5%) scale(0.85)",
  hidden: "translate(-50%, 8%) scale(0.7)",
};

function positionOf(index: number, front: number, count: number): Position {
  const offset = (index - front + count) % count;
  if (offset === 0) return "front";
  if (offset === 1) return "next";
  if (offset === count - 1) return "previous";
  return "hidden";
}

/**
 * The hero's four screenshots (S-LAND-14..18): the front one with its two neighbours beside it
 * and the fourth hidden; clicking a neighbour brings it to the front; the front one enlarges in a
 * dialog. It advances every 8 s (the timer restarts after a click) unless paused.
 */
export function HeroCarousel() {
  const [front, setFront] = useState(0);
  const [paused, setPaused] = useState(false);
  const enlarge = useRef<HTMLDialogElement>(null);
  const [enlarged, setEnlarged] = useState<number | null>(null);
  const count = carouselSlides.length;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new front slide restarts the 8 s wait
  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(
      () => setFront((current) => (current + 1) % carouselSlides.length),
      carouselIntervalMs,
    );
    return () => window.clearTimeout(timer);
  }, [front, paused]);

  const open = (index: number) => {
    setEnlarged(index);
    enlarge.current?.showModal();
  };
  const shown = enlarged === null ? undefined : carouselSlides[enlarged];

  return (
    <div className="w-full">
      <section aria-roledescription="carousel" aria-label="Product screenshots" className="relative">
        <div className="relative mx-auto aspect-[2/1] w-full max-w-4xl" data-testid="carousel">
          {carouselSlides.map((slide, index) => {
            const position = positionOf(index, front, count);
            const isFront = position === "front";
            return (
              <div
                key={slide.name}
                data-testid="carousel-slide"
                data-slide={slide.name}
                data-position={position}
                aria-hidden={position === "hidden" ? true : undefined}
                className={cx(
                  "absolute top-0 left-1/2 w-[72%] origin-top transition-[transform,opacity] duration-500 ease-out motion-reduce:transition-none",
                  isFront ? "z-20" : "z-10",
                  position === "hidden" ? "invisible opacity-0" : !isFront && "opacity-80 hover:opacity-100",
                )}
                style={{ transform: positionStyle[position] }}
              >
                <button
                  type="button"
                  tabIndex={position === "hidden" ? -1 : undefined}
                  aria-label={isFront ? `Click to enlarge: ${slide.title}` : `Show ${slide.title}`}
                  onClick={() => (isFront ? open(index) : setFront(index))}
                  className="group relative block w-full cursor-pointer overflow-hidden rounded-xl border bg-card shadow-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                >
                  <img
                    src={screenshotSrc(slide.name)}
                    srcSet={screenshotSrcSet(slide.name)}
                    sizes={carouselImageSizes}
                    width={screenshotWidth}
                    height={screenshotHeight}
                    alt={slide.alt}
                    loading={index === 0 ? "eager" : "lazy"}
                    fetchPriority={index === 0 ? "high" : undefined}
                    decoding={index === 0 ? undefined : "async"}
                    className="block h-auto w-full bg-muted"
                  />
                  {isFront && (
                    <span className="absolute right-3 bottom-3 inline-flex items-center gap-1.5 rounded-full bg-foreground/85 px-3 py-1.5 text-xs font-medium text-background shadow-sm">
                      <Maximize2 className="size-3.5" aria-hidden="true" />
                      Click to enlarge
                    </span>
                  )}
                </button>
              </div>
            );
          })}
        </div>
        <div className="mt-4 flex items-center justify-center gap-3">
          <p
            className="min-w-40 text-center text-sm font-medium text-secondary-foreground"
            data-testid="carousel-caption"
          >
            {carouselSlides[front]?.title}
          </p>
          <ul className="flex items-center gap-1">
            {carouselSlides.map((slide, index) => (
              <li key={slide.name}>
                <button
                  type="button"
                  aria-label={`Show slide ${index + 1}: ${slide.title}`}
                  aria-current={index === front ? "true" : undefined}
                  onClick={() => setFront(index)}
                  className="flex size-6 items-center justify-center rounded-full"
                >
                  <span
                    className={cx(
                      "block size-2.5 rounded-full transition-colors",
                      index === front ? "bg-primary" : "bg-input",
                    )}
                  />
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            aria-label={paused ? "Play slideshow" : "Pause slideshow"}
            onClick={() => setPaused((value) => !value)}
            className="flex size-8 items-center justify-center rounded-full text-muted-foreground hover:bg-muted hover:text-foreground"
          >
            {paused ? <Play className="size-4" aria-hidden="true" /> : <Pause className="size-4" aria-hidden="true" />}
          </button>
        </div>
      </section>
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes; keys have Escape and the Close button */}
      <dialog
        ref={enlarge}
        aria-label={shown ? `${shown.title} screenshot` : "Screenshot"}
        data-testid="enlarge-dialog"
        onClose={() => setEnlarged(null)}
        onClick={(event) => {
          if (event.target === event.currentTarget) enlarge.current?.close();
        }}
        className="m-auto max-h-[92dvh] w-[min(72rem,94vw)] max-w-none animate-zoom-in overflow-auto rounded-xl bg-card p-0 shadow-lg"
      >
        <div className="flex items-center justify-between gap-4 border-b px-4 py-2">
          <p className="font-semibold">{shown?.title}</p>
          <button
            type="button"
            aria-label="Close"
            onClick={() => enlarge.current?.close()}
            className="inline-flex size-10 items-center justify-center rounded-md hover:bg-muted"
          >
            <X className="size-5" aria-hidden="true" />
          </button>
        </div>
        {shown && (
          <img
            src={screenshotSrc(shown.name, 1280)}
            width={screenshotWidth}
            height={screenshotHeight}
            alt={shown.alt}
            className="block h-auto w-full"
          />
        )}
      </dialog>
    </div>
  );
}
