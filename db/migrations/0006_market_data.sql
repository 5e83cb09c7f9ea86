CREATE TABLE "api_usage" (
	"api_key_id" uuid NOT NULL,
	"day" date NOT NULL,
	"endpoint" text NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "api_usage_api_key_id_day_endpoint_pk" PRIMARY KEY("api_key_id","day","endpoint")
);
--> statement-breakpoint
CREATE TABLE "analyst_estimates" (
	"symbol" text NOT NULL,
	"period" text NOT NULL,
	"date" date NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "analyst_estimates_symbol_period_date_pk" PRIMARY KEY("symbol","period","date"),
	CONSTRAINT "analyst_estimates_period_check" CHECK (period in ('annual', 'quarter'))
);
--> statement-breakpoint
CREATE TABLE "company_profiles" (
	"symbol" text PRIMARY KEY NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"ceo" text DEFAULT '' NOT NULL,
	"website" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"cik" text DEFAULT '' NOT NULL,
	"isin" text DEFAULT '' NOT NULL,
	"cusip" text DEFAULT '' NOT NULL,
	"full_time_employees" integer,
	"ipo_date" date,
	"image" text DEFAULT '' NOT NULL,
	"beta" double precision DEFAULT 1 NOT NULL,
	"is_adr" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_prices" (
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"adj_close" double precision NOT NULL,
	"volume" bigint NOT NULL,
	CONSTRAINT "daily_prices_symbol_date_pk" PRIMARY KEY("symbol","date"),
	CONSTRAINT "daily_prices_range_check" CHECK (low <= high and volume >= 0)
);
--> statement-breakpoint
CREATE TABLE "dataset_info" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dividends" (
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"record_date" date,
	"payment_date" date,
	"declaration_date" date,
	"dividend" double precision NOT NULL,
	"adj_dividend" double precision NOT NULL,
	"frequency" text DEFAULT 'Quarterly' NOT NULL,
	CONSTRAINT "dividends_symbol_date_pk" PRIMARY KEY("symbol","date")
);
--> statement-breakpoint
CREATE TABLE "earning_call_transcripts" (
	"symbol" text NOT NULL,
	"fiscal_year" integer NOT NULL,
	"quarter" integer NOT NULL,
	"date" date NOT NULL,
	"content" text NOT NULL,
	CONSTRAINT "earning_call_transcripts_symbol_fiscal_year_quarter_pk" PRIMARY KEY("symbol","fiscal_year","quarter"),
	CONSTRAINT "earning_call_transcripts_quarter_check" CHECK (quarter between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "earnings" (
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"eps_actual" double precision,
	"eps_estimated" double precision,
	"revenue_actual" double precision,
	"revenue_estimated" double precision,
	"last_updated" date NOT NULL,
	CONSTRAINT "earnings_symbol_date_pk" PRIMARY KEY("symbol","date")
);
--> statement-breakpoint
CREATE TABLE "economic_indicators" (
	"name" text NOT NULL,
	"date" date NOT NULL,
	"value" double precision NOT NULL,
	CONSTRAINT "economic_indicators_name_date_pk" PRIMARY KEY("name","date")
);
--> statement-breakpoint
CREATE TABLE "esg_ratings" (
	"symbol" text NOT NULL,
	"fiscal_year" integer NOT NULL,
	"esg_risk_rating" text NOT NULL,
	"industry_rank" text NOT NULL,
	CONSTRAINT "esg_ratings_symbol_fiscal_year_pk" PRIMARY KEY("symbol","fiscal_year")
);
--> statement-breakpoint
CREATE TABLE "financial_statements" (
	"symbol" text NOT NULL,
	"statement" text NOT NULL,
	"fiscal_year" integer NOT NULL,
	"period" text NOT NULL,
	"date" date NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "financial_statements_symbol_statement_fiscal_year_period_pk" PRIMARY KEY("symbol","statement","fiscal_year","period"),
	CONSTRAINT "financial_statements_statement_check" CHECK (statement in ('income', 'balance-sheet', 'cash-flow')),
	CONSTRAINT "financial_statements_period_check" CHECK (period in ('FY', 'Q1', 'Q2', 'Q3', 'Q4'))
);
--> statement-breakpoint
CREATE TABLE "grades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"grading_company" text NOT NULL,
	"previous_grade" text DEFAULT '' NOT NULL,
	"new_grade" text NOT NULL,
	"action" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "insider_trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"filing_date" date NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institutional_ownership" (
	"symbol" text NOT NULL,
	"year" integer NOT NULL,
	"quarter" integer NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "institutional_ownership_symbol_year_quarter_pk" PRIMARY KEY("symbol","year","quarter"),
	CONSTRAINT "institutional_ownership_quarter_check" CHECK (quarter between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "intraday_prices" (
	"symbol" text NOT NULL,
	"time" timestamp NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume" bigint NOT NULL,
	CONSTRAINT "intraday_prices_symbol_time_pk" PRIMARY KEY("symbol","time")
);
--> statement-breakpoint
CREATE TABLE "key_executives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"name" text NOT NULL,
	"title" text NOT NULL,
	"pay" bigint,
	"currency_pay" text DEFAULT 'USD' NOT NULL,
	"gender" text DEFAULT '' NOT NULL,
	"year_born" integer,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "news" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"category" text NOT NULL,
	"symbol" text,
	"published_at" timestamp NOT NULL,
	"publisher" text NOT NULL,
	"title" text NOT NULL,
	"image" text DEFAULT '' NOT NULL,
	"site" text NOT NULL,
	"text" text NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "news_url_unique" UNIQUE("url"),
	CONSTRAINT "news_category_check" CHECK (category in ('stock', 'crypto', 'forex', 'general'))
);
--> statement-breakpoint
CREATE TABLE "price_targets" (
	"symbol" text PRIMARY KEY NOT NULL,
	"target_high" double precision NOT NULL,
	"target_low" double precision NOT NULL,
	"target_consensus" double precision NOT NULL,
	"target_median" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "securities" (
	"symbol" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"asset_type" text NOT NULL,
	"exchange" text NOT NULL,
	"exchange_full_name" text NOT NULL,
	"currency" text NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"sector" text DEFAULT '' NOT NULL,
	"industry" text DEFAULT '' NOT NULL,
	"shares_outstanding" double precision,
	"sample" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source" text DEFAULT 'demo' NOT NULL,
	CONSTRAINT "securities_asset_type_check" CHECK (asset_type in ('stock', 'etf', 'fund', 'crypto', 'forex', 'commodity', 'index')),
	CONSTRAINT "securities_source_check" CHECK (source in ('demo', 'imported'))
);
--> statement-breakpoint
CREATE TABLE "senate_trades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"symbol" text NOT NULL,
	"disclosure_date" date NOT NULL,
	"data" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "splits" (
	"symbol" text NOT NULL,
	"date" date NOT NULL,
	"numerator" double precision NOT NULL,
	"denominator" double precision NOT NULL,
	CONSTRAINT "splits_symbol_date_pk" PRIMARY KEY("symbol","date"),
	CONSTRAINT "splits_ratio_check" CHECK (numerator > 0 and denominator > 0)
);
--> statement-breakpoint
CREATE TABLE "treasury_rates" (
	"date" date PRIMARY KEY NOT NULL,
	"month1" double precision NOT NULL,
	"month2" double precision NOT NULL,
	"month3" double precision NOT NULL,
	"month6" double precision NOT NULL,
	"year1" double precision NOT NULL,
	"year2" double precision NOT NULL,
	"year3" double precision NOT NULL,
	"year5" double precision NOT NULL,
	"year7" double precision NOT NULL,
	"year10" double precision NOT NULL,
	"year20" double precision NOT NULL,
	"year30" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "price_plans" ADD COLUMN "data_tier" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "price_plans" ADD COLUMN "history_years" integer;--> statement-breakpoint
ALTER TABLE "api_usage" ADD CONSTRAINT "api_usage_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "analyst_estimates" ADD CONSTRAINT "analyst_estimates_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "company_profiles" ADD CONSTRAINT "company_profiles_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "daily_prices" ADD CONSTRAINT "daily_prices_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "dividends" ADD CONSTRAINT "dividends_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "earning_call_transcripts" ADD CONSTRAINT "earning_call_transcripts_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "earnings" ADD CONSTRAINT "earnings_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "esg_ratings" ADD CONSTRAINT "esg_ratings_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "financial_statements" ADD CONSTRAINT "financial_statements_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "grades" ADD CONSTRAINT "grades_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "insider_trades" ADD CONSTRAINT "insider_trades_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "institutional_ownership" ADD CONSTRAINT "institutional_ownership_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "intraday_prices" ADD CONSTRAINT "intraday_prices_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "key_executives" ADD CONSTRAINT "key_executives_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "price_targets" ADD CONSTRAINT "price_targets_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "senate_trades" ADD CONSTRAINT "senate_trades_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
ALTER TABLE "splits" ADD CONSTRAINT "splits_symbol_securities_symbol_fk" FOREIGN KEY ("symbol") REFERENCES "securities"("symbol") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "api_usage_day_idx" ON "api_usage" USING btree ("day");--> statement-breakpoint
CREATE INDEX "daily_prices_date_idx" ON "daily_prices" USING btree ("date");--> statement-breakpoint
CREATE INDEX "financial_statements_date_idx" ON "financial_statements" USING btree ("symbol","statement","date");--> statement-breakpoint
CREATE INDEX "grades_symbol_date_idx" ON "grades" USING btree ("symbol","date");--> statement-breakpoint
CREATE INDEX "insider_trades_filing_date_idx" ON "insider_trades" USING btree ("filing_date");--> statement-breakpoint
CREATE INDEX "insider_trades_symbol_idx" ON "insider_trades" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "key_executives_symbol_idx" ON "key_executives" USING btree ("symbol");--> statement-breakpoint
CREATE INDEX "news_category_published_idx" ON "news" USING btree ("category","published_at");--> statement-breakpoint
CREATE INDEX "news_symbol_published_idx" ON "news" USING btree ("symbol","published_at");--> statement-breakpoint
CREATE INDEX "securities_asset_type_idx" ON "securities" USING btree ("asset_type");--> statement-breakpoint
CREATE INDEX "securities_sector_idx" ON "securities" USING btree ("sector");--> statement-breakpoint
CREATE INDEX "senate_trades_disclosure_date_idx" ON "senate_trades" USING btree ("disclosure_date");--> statement-breakpoint
ALTER TABLE "price_plans" ADD CONSTRAINT "price_plans_data_tier_check" CHECK (data_tier between 0 and 4);--> statement-breakpoint
-- What each launch plan opens in the data API (see the features text of 0002).
UPDATE "price_plans" SET "data_tier" = 0, "history_years" = 1 WHERE "code" = 'free';--> statement-breakpoint
UPDATE "price_plans" SET "data_tier" = 1, "history_years" = 10 WHERE "code" = 'starterT1';--> statement-breakpoint
UPDATE "price_plans" SET "data_tier" = 2, "history_years" = NULL WHERE "code" IN ('monthlyT2', 'annualT2');--> statement-breakpoint
UPDATE "price_plans" SET "data_tier" = 3, "history_years" = NULL WHERE "code" IN ('monthlyT3', 'annualT3');--> statement-breakpoint
UPDATE "price_plans" SET "data_tier" = 4, "history_years" = NULL WHERE "code" IN ('commercialBuild', 'commercialEnterprise');
