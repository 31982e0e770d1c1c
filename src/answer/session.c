/* The session: the tables a caller answers against, built when first used,
 * the user's overlays given as text (collcalc/answer.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collcalc/answer.h"
#include "helpers.h"

enum { NOTES_MAX = 4, NOTE_TEXT_MAX = 320 };

struct collcalc_session {
    collcalc_link_table *links;
    collcalc_platform_table *platforms;
    collcalc_model_table *models;
    collcalc_nccl_constants_table *constants;
    size_t note_count;
    char notes[NOTES_MAX][NOTE_TEXT_MAX];
};

collcalc_status collcalc_session_new(collcalc_session **out, collcalc_diag *diag)
{
    *out = calloc(1, sizeof **out);
    if (*out == NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_NOMEM, "out of memory");
    return COLLCALC_OK;
}

void collcalc_session_free(collcalc_session *session)
{
    if (session == NULL)
        return;
    collcalc_link_table_free(session->links);
    collcalc_platform_table_free(session->platforms);
    collcalc_model_table_free(session->models);
    collcalc_nccl_constants_table_free(session->constants);
    free(session);
}

size_t collcalc_session_note_count(const collcalc_session *session)
{
    return session != NULL ? session->note_count : 0;
}

const char *collcalc_session_note(const collcalc_session *session, size_t index)
{
    return session != NULL && index < session->note_count ? session->notes[index] : "";
}

/* The name of entry index of a merged table when it replaced a built-in
 * entry, else NULL: one per table type, for note_replaced. */
typedef const char *(*replaced_name_fn)(const void *table, size_t index);

static const char *replaced_link(const void *table, size_t index)
{
    return collcalc_link_table_origin(table, index) == COLLCALC_ENTRY_REPLACED
               ? collcalc_link_table_at(table, index)->name
               : NULL;
}

static const char *replaced_platform(const void *table, size_t index)
{
    return collcalc_platform_table_origin(table, index) == COLLCALC_ENTRY_REPLACED
               ? collcalc_platform_table_at(table, index)->name
               : NULL;
}

static const char *replaced_model(const void *table, size_t index)
{
    return collcalc_model_table_origin(table, index) == COLLCALC_ENTRY_REPLACED
               ? collcalc_model_table_at(table, index)->name
               : NULL;
}

/* Notes "NAME replaces the built-in NOUN(s) a, b" for a user's table merged
 * over a built-in one of count entries, replaced of them replaced; the list
 * is cut at 200 bytes, the plural follows replaced. */
static void note_replaced(collcalc_session *session, const char *name, const char *noun,
                          const void *table, size_t count, size_t replaced,
                          replaced_name_fn name_of)
{
    char names[200] = "";
    size_t used = 0;
    for (size_t i = 0; i < count && used < sizeof names; i++) {
        const char *entry = name_of(table, i);
        if (entry != NULL)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     entry);
    }
    if (used == 0 || session->note_count >= NOTES_MAX)
        return;
    snprintf(session->notes[session->note_count++], NOTE_TEXT_MAX,
             "%s replaces the built-in %s%s %s", name, noun, replaced == 1 ? "" : "s", names);
}

collcalc_status collcalc_session_links(collcalc_session *session,
                                       const collcalc_link_table **out, collcalc_diag *diag)
{
    if (session->links == NULL) {
        collcalc_status status = collcalc_link_table_builtin(&session->links, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    *out = session->links;
    return COLLCALC_OK;
}

collcalc_status collcalc_session_load_links(collcalc_session *session, const char *text,
                                            size_t length, const char *name,
                                            collcalc_table_mode mode, collcalc_diag *diag)
{
    if (session->links != NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s: the link table is already in use", name);
    collcalc_link_table *file = NULL;
    collcalc_status status = collcalc_link_table_parse_named(text, length, name, &file, diag);
    if (status != COLLCALC_OK)
        return status;
    if (mode == COLLCALC_TABLE_REPLACE) {
        session->links = file;
        return COLLCALC_OK;
    }
    collcalc_link_table *builtin = NULL;
    status = collcalc_link_table_builtin(&builtin, diag);
    if (status == COLLCALC_OK)
        status = collcalc_link_table_overlay(builtin, file, &session->links, diag);
    collcalc_link_table_free(builtin);
    collcalc_link_table_free(file);
    if (status != COLLCALC_OK)
        return status;
    note_replaced(session, name, "link", session->links,
                  collcalc_link_table_count(session->links),
                  collcalc_link_table_replaced_count(session->links), replaced_link);
    return COLLCALC_OK;
}

collcalc_status collcalc_session_platforms(collcalc_session *session,
                                           const collcalc_platform_table **out,
                                           collcalc_diag *diag)
{
    if (session->platforms == NULL) {
        const collcalc_link_table *links;
        collcalc_status status = collcalc_session_links(session, &links, diag);
        if (status == COLLCALC_OK)
            status = collcalc_platform_table_builtin(links, &session->platforms, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    *out = session->platforms;
    return COLLCALC_OK;
}

collcalc_status collcalc_session_load_platforms(collcalc_session *session, const char *text,
                                                size_t length, const char *name,
                                                collcalc_table_mode mode, collcalc_diag *diag)
{
    if (session->platforms != NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s: the platform table is already in use", name);
    const collcalc_link_table *links;
    collcalc_status status = collcalc_session_links(session, &links, diag);
    if (status != COLLCALC_OK)
        return status;
    collcalc_platform_table *file = NULL;
    status = collcalc_platform_table_parse_named(text, length, name, links, &file, diag);
    if (status != COLLCALC_OK)
        return status;
    if (mode == COLLCALC_TABLE_REPLACE) {
        session->platforms = file;
        return COLLCALC_OK;
    }
    collcalc_platform_table *base = NULL;
    status = collcalc_platform_table_builtin(links, &base, diag);
    if (status == COLLCALC_OK)
        status = collcalc_platform_table_overlay(base, file, &session->platforms, diag);
    collcalc_platform_table_free(base);
    collcalc_platform_table_free(file);
    if (status != COLLCALC_OK) {
        session->platforms = NULL;
        return status;
    }
    note_replaced(session, name, "platform", session->platforms,
                  collcalc_platform_table_count(session->platforms),
                  collcalc_platform_table_replaced_count(session->platforms), replaced_platform);
    return COLLCALC_OK;
}

collcalc_status collcalc_session_models(collcalc_session *session,
                                        const collcalc_model_table **out, collcalc_diag *diag)
{
    if (session->models == NULL) {
        collcalc_status status = collcalc_model_table_builtin(&session->models, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    *out = session->models;
    return COLLCALC_OK;
}

collcalc_status collcalc_session_load_models(collcalc_session *session, const char *text,
                                             size_t length, const char *name,
                                             collcalc_diag *diag)
{
    if (session->models != NULL)
        return collcalc_diag_fail(diag, COLLCALC_ERR_INVALID,
                                  "%s: the model table is already in use", name);
    collcalc_model_table *builtin = NULL, *file = NULL;
    collcalc_status status = collcalc_model_table_builtin(&builtin, diag);
    if (status == COLLCALC_OK)
        status = collcalc_model_table_parse(text, length, name, &file, diag);
    if (status == COLLCALC_OK)
        status = collcalc_model_table_overlay(builtin, file, &session->models, diag);
    collcalc_model_table_free(builtin);
    collcalc_model_table_free(file);
    if (status != COLLCALC_OK) {
        session->models = NULL;
        return status;
    }
    note_replaced(session, name, "model", session->models,
                  collcalc_model_table_count(session->models),
                  collcalc_model_table_replaced_count(session->models), replaced_model);
    return COLLCALC_OK;
}

collcalc_status collcalc_session_nccl_constants(collcalc_session *session,
                                                const collcalc_nccl_constants_table **out,
                                                collcalc_diag *diag)
{
    if (session->constants == NULL) {
        collcalc_status status = collcalc_nccl_constants_builtin(&session->constants, diag);
        if (status != COLLCALC_OK)
            return status;
    }
    *out = session->constants;
    return COLLCALC_OK;
}

collcalc_status collcalc_session_platform(collcalc_session *session, const char *name,
                                          const collcalc_platform **out, collcalc_diag *diag)
{
    const collcalc_platform_table *platforms;
    collcalc_status status = collcalc_session_platforms(session, &platforms, diag);
    if (status != COLLCALC_OK)
        return status;
    return collcalc_platform_table_lookup(platforms, NULL, name, out, diag);
}
