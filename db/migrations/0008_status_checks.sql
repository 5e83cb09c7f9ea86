CREATE TABLE "status_checks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"component" text NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"state" text NOT NULL,
	"latency_ms" integer NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	CONSTRAINT "status_checks_state_check" CHECK (state in ('operational', 'degraded', 'down')),
	CONSTRAINT "status_checks_latency_check" CHECK (latency_ms >= 0)
);
--> statement-breakpoint
CREATE TABLE "status_days" (
	"component" text NOT NULL,
	"day" date NOT NULL,
	"checks" integer DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "status_days_component_day_pk" PRIMARY KEY("component","day"),
	CONSTRAINT "status_days_passed_check" CHECK (passed between 0 and checks)
);
--> statement-breakpoint
CREATE INDEX "status_checks_checked_at_idx" ON "status_checks" USING btree ("checked_at");--> statement-breakpoint
CREATE INDEX "status_checks_component_checked_at_idx" ON "status_checks" USING btree ("component","checked_at");--> statement-breakpoint
CREATE INDEX "status_days_day_idx" ON "status_days" USING btree ("day");