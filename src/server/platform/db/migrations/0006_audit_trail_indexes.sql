DROP INDEX "audit_events_firm_id_entity_idx";--> statement-breakpoint
CREATE INDEX "audit_events_firm_id_entity_type_seq_idx" ON "audit_events" USING btree ("firm_id","entity_type","seq");--> statement-breakpoint
CREATE INDEX "audit_events_firm_id_entity_id_seq_idx" ON "audit_events" USING btree ("firm_id","entity_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_firm_id_actor_user_id_seq_idx" ON "audit_events" USING btree ("firm_id","actor_user_id","seq");--> statement-breakpoint
CREATE INDEX "audit_events_firm_id_created_at_seq_idx" ON "audit_events" USING btree ("firm_id","created_at","seq");