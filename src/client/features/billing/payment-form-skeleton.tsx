import { Card, CardContent } from "../../components/ui/card";
import { Skeleton } from "../../components/ui/skeleton";

/** Stands in for the payment form while the billing config, the setup or Stripe.js load. */
export function PaymentFormSkeleton() {
  return (
    <Card className="shadow-sm" aria-busy="true">
      <CardContent className="flex flex-col gap-4 p-5">
        <p className="sr-only" role="status">
          Loading the payment form
        </p>
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-10 w-full" />
        <div className="grid grid-cols-2 gap-3">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
        <Skeleton className="h-10 w-full" />
      </CardContent>
    </Card>
  );
}
