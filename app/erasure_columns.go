package app

// What erasing a contact does with a column that can hold text.
const (
	// DeleteContact deletes or rewrites it, itself or through a foreign key.
	columnErased = "erased"
	// A full-text index: triggers take a rewritten or deleted text's words
	// out (with secure-delete), so it follows the erased columns.
	columnIndex = "erased with the text it indexes"
	// Ids, modes, statuses, types, hashes and times the service makes.
	columnMade = "made by the service"
	// The team's own data (members, keys, sites, settings, knowledge,
	// canned replies, webhooks): no contact's.
	columnTeam = "the team's own"
	// Text another system wrote (an error answer, a Message-ID), quoting
	// no one.
	columnForeign = "an error or token from another system"
)

// erasureColumns holds, for every column of the schema that can hold text
// ("table.column"), what erasing a contact does with it: erased, or why it
// holds no contact's personal data. TestErasureCoversTheSchema checks it
// against the live schema, so a column added without a decision fails the
// tests instead of outliving an erasure.
var erasureColumns = map[string]string{
	"api_keys.hash": columnTeam,
	"api_keys.hint": columnTeam,
	"api_keys.id":   columnTeam,
	"api_keys.mode": columnTeam,
	"api_keys.name": columnTeam,

	"assistant_jobs.conversation_id": columnMade,
	"assistant_jobs.last_error":      columnForeign,
	"assistant_jobs.message_id":      columnMade,
	"assistant_jobs.mode":            columnMade,

	"assistant_replies.conversation_id": columnMade,
	"assistant_replies.message_id":      columnMade,
	"assistant_replies.mode":            columnMade,
	"assistant_replies.question_id":     columnMade,

	"attachments.content_type": columnMade,
	"attachments.hash":         columnMade,
	"attachments.id":           columnMade,
	"attachments.message_id":   columnMade,
	"attachments.mode":         columnMade,
	"attachments.name":         columnErased,

	"canned_replies.body":     columnTeam,
	"canned_replies.id":       columnTeam,
	"canned_replies.mode":     columnTeam,
	"canned_replies.shortcut": columnTeam,
	"canned_replies.title":    columnTeam,

	"contacts.attributes":  columnErased,
	"contacts.email":       columnErased,
	"contacts.email_norm":  columnErased,
	"contacts.external_id": columnErased,
	"contacts.id":          columnErased,
	"contacts.mode":        columnMade,
	"contacts.name":        columnErased,
	"contacts.phone":       columnErased,

	"conversation_reads.conversation_id": columnMade,
	"conversation_reads.member_id":       columnMade,

	"conversation_tags.conversation_id": columnMade,
	"conversation_tags.mode":            columnMade,
	"conversation_tags.tag":             columnErased,

	"conversations.assignee_id":    columnMade,
	"conversations.contact_id":     columnErased,
	"conversations.id":             columnMade,
	"conversations.metadata":       columnErased,
	"conversations.mode":           columnMade,
	"conversations.page_url":       columnErased,
	"conversations.rating_comment": columnErased,
	"conversations.site_id":        columnMade,
	"conversations.status":         columnMade,
	"conversations.subject":        columnErased,
	"conversations.tags":           columnErased,
	"conversations.visitor_id":     columnErased,

	"counters.mode": columnMade,
	"counters.name": columnMade,

	"dashboard_sessions.csrf":       columnTeam,
	"dashboard_sessions.member_id":  columnTeam,
	"dashboard_sessions.mode":       columnTeam,
	"dashboard_sessions.token_hash": columnTeam,

	"events.data":      columnErased,
	"events.id":        columnMade,
	"events.mode":      columnMade,
	"events.object_id": columnMade,
	"events.type":      columnMade,

	"idempotency_keys.body":        columnErased,
	"idempotency_keys.fingerprint": columnErased,
	"idempotency_keys.key":         columnErased,
	"idempotency_keys.mode":        columnMade,

	"inbound_mail.message_id": columnForeign,
	"inbound_mail.object_id":  columnMade,
	"inbound_mail.outcome":    columnMade,
	"inbound_mail.sender":     columnErased,

	"knowledge_chunks.heading":   columnTeam,
	"knowledge_chunks.lang":      columnTeam,
	"knowledge_chunks.source_id": columnTeam,
	"knowledge_chunks.text":      columnTeam,
	"knowledge_chunks.title":     columnTeam,
	"knowledge_chunks.url":       columnTeam,

	"knowledge_index_queue.source_id": columnTeam,

	"knowledge_sources.content":        columnTeam,
	"knowledge_sources.failure_reason": columnTeam,
	"knowledge_sources.id":             columnTeam,
	"knowledge_sources.language":       columnTeam,
	"knowledge_sources.politeness":     columnTeam,
	"knowledge_sources.mode":           columnTeam,
	"knowledge_sources.name":           columnTeam,
	"knowledge_sources.site_id":        columnTeam,
	"knowledge_sources.status":         columnTeam,
	"knowledge_sources.type":           columnTeam,
	"knowledge_sources.url":            columnTeam,

	"knowledge_vectors.model":     columnTeam,
	"knowledge_vectors.source_id": columnTeam,
	"knowledge_vectors.vector":    columnTeam,

	"member_links.member_id":  columnTeam,
	"member_links.purpose":    columnTeam,
	"member_links.token_hash": columnTeam,

	"members.email":         columnTeam,
	"members.id":            columnTeam,
	"members.name":          columnTeam,
	"members.password_hash": columnTeam,
	"members.role":          columnTeam,
	"members.totp_pending":  columnTeam,
	"members.totp_secret":   columnTeam,

	"messages.attachments":     columnErased,
	"messages.author_id":       columnErased,
	"messages.author_name":     columnErased,
	"messages.author_type":     columnMade,
	"messages.body":            columnErased,
	"messages.conversation_id": columnMade,
	"messages.id":              columnMade,
	"messages.mode":            columnMade,
	"messages.sources":         columnTeam,

	"notes.author_id":       columnMade,
	"notes.body":            columnErased,
	"notes.conversation_id": columnMade,
	"notes.id":              columnMade,
	"notes.mode":            columnMade,

	"outbox.contact_id":      columnErased,
	"outbox.conversation_id": columnMade,
	"outbox.data":            columnErased,
	"outbox.id":              columnMade,
	"outbox.last_error":      columnErased,
	"outbox.mode":            columnMade,
	"outbox.status":          columnMade,
	"outbox.template":        columnMade,
	"outbox.ticket_id":       columnMade,
	"outbox.to_email":        columnErased,
	"outbox.to_name":         columnErased,

	"recovery_codes.code_hash": columnTeam,
	"recovery_codes.member_id": columnTeam,

	"push_subscriptions.auth":      columnTeam,
	"push_subscriptions.endpoint":  columnTeam,
	"push_subscriptions.id":        columnTeam,
	"push_subscriptions.member_id": columnTeam,
	"push_subscriptions.p256dh":    columnTeam,

	"pushes.id":              columnMade,
	"pushes.payload":         columnErased,
	"pushes.subscription_id": columnMade,

	"schema_migrations.applied_at": columnMade,

	"search_docs.mode":           columnMade,
	"search_docs.source_id":      columnMade,
	"search_docs.target_id":      columnMade,
	"search_docs.type":           columnMade,
	"search_messages.body":       columnIndex,
	"search_messages_config.k":   columnIndex,
	"search_messages_config.v":   columnIndex,
	"search_messages_data.block": columnIndex,
	"search_messages_docsize.sz": columnIndex,
	"search_messages_idx.pgno":   columnIndex,
	"search_messages_idx.segid":  columnIndex,
	"search_messages_idx.term":   columnIndex,
	"search_positions.name":      columnMade,
	"search_queue.source":        columnMade,
	"search_queue.source_id":     columnMade,
	"search_text.body":           columnIndex,
	"search_text_config.k":       columnIndex,
	"search_text_config.v":       columnIndex,
	"search_text_content.c0":     columnIndex,
	"search_text_data.block":     columnIndex,
	"search_text_docsize.sz":     columnIndex,
	"search_text_idx.pgno":       columnIndex,
	"search_text_idx.segid":      columnIndex,
	"search_text_idx.term":       columnIndex,

	"settings.key":   columnTeam,
	"settings.value": columnTeam,

	"sign_in_failures.email": columnTeam,

	"sites.business_hours":  columnTeam,
	"sites.domains":         columnTeam,
	"sites.id":              columnTeam,
	"sites.identity_secret": columnTeam,
	"sites.name":            columnTeam,
	"sites.widget":          columnTeam,

	"synonyms.id":    columnTeam,
	"synonyms.mode":  columnTeam,
	"synonyms.words": columnTeam,

	"ticket_comment_files.comment_id":   columnMade,
	"ticket_comment_files.content_type": columnMade,
	"ticket_comment_files.hash":         columnMade,
	"ticket_comment_files.id":           columnMade,
	"ticket_comment_files.mode":         columnMade,
	"ticket_comment_files.name":         columnErased,

	"ticket_comments.attachments": columnErased,
	"ticket_comments.author_id":   columnErased,
	"ticket_comments.author_name": columnErased,
	"ticket_comments.author_type": columnMade,
	"ticket_comments.body":        columnErased,
	"ticket_comments.id":          columnMade,
	"ticket_comments.mode":        columnMade,
	"ticket_comments.ticket_id":   columnMade,
	"ticket_comments.via":         columnMade,

	"ticket_tags.mode":      columnMade,
	"ticket_tags.tag":       columnErased,
	"ticket_tags.ticket_id": columnMade,

	"tickets.assignee_id":     columnMade,
	"tickets.contact_id":      columnMade,
	"tickets.conversation_id": columnMade,
	"tickets.description":     columnErased,
	"tickets.id":              columnMade,
	"tickets.metadata":        columnErased,
	"tickets.mode":            columnMade,
	"tickets.priority":        columnMade,
	"tickets.status":          columnMade,
	"tickets.subject":         columnErased,
	"tickets.tags":            columnErased,

	"uploads.content_type": columnMade,
	"uploads.hash":         columnMade,
	"uploads.id":           columnMade,
	"uploads.mode":         columnMade,
	"uploads.name":         columnErased, // the upload is deleted with the person's visitors
	"uploads.visitor_id":   columnMade,

	"visitors.contact_id": columnErased,
	"visitors.id":         columnMade,
	"visitors.mode":       columnMade,
	"visitors.page_url":   columnErased,
	"visitors.site_id":    columnMade,

	"waiting_alerts.conversation_id": columnMade,
	"waiting_alerts.mode":            columnMade,
	"waiting_alerts.status":          columnMade,

	"webhook_attempts.endpoint_id": columnMade,
	"webhook_attempts.error":       columnForeign,
	"webhook_attempts.event_id":    columnMade,
	"webhook_attempts.event_type":  columnMade,
	"webhook_attempts.id":          columnMade,
	"webhook_attempts.mode":        columnMade,

	"webhook_endpoints.description":     columnTeam,
	"webhook_endpoints.disabled_reason": columnTeam,
	"webhook_endpoints.events":          columnTeam,
	"webhook_endpoints.id":              columnTeam,
	"webhook_endpoints.mode":            columnTeam,
	"webhook_endpoints.secret":          columnTeam,
	"webhook_endpoints.url":             columnTeam,

	"webhook_queue.endpoint_id": columnMade,
	"webhook_queue.event_id":    columnMade,
	"webhook_queue.mode":        columnMade,
}
