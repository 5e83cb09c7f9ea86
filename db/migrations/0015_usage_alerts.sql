CREATE TABLE "usage_alerts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"thresholds" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_alerts_sent" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"threshold" integer NOT NULL,
	"calls" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_alerts_sent_user_id_day_threshold_pk" PRIMARY KEY("user_id","day","threshold")
);
--> statement-breakpoint
ALTER TABLE "usage_alerts" ADD CONSTRAINT "usage_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_alerts_sent" ADD CONSTRAINT "usage_alerts_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;