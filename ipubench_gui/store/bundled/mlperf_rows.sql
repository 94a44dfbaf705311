-- An official MLPerf result as a results_v row. Included (by store/bundled/build.py and
-- store/mlperf/mlperf_import.py) where two names are defined: mlperf_src (rows shaped
-- as data/mlperf_training.csv) and vendor_src (rows of data/results.csv: the
-- vendor-page figure a result shares its row with, if any).
-- Names are the official result's (the store gives them their canonical
-- names); printed_* hold the words its *_as_printed keep where they are not
-- those (store/names.official_names): the system file's framework text, and
-- for a row shared with a vendor-page figure the page's own words.
SELECT
    coalesce(v.result_id, t.result_id) AS result_id,
    t.repository AS source_file,
    'MLPerf Training v' || t.mlperf_round AS "table",
    CAST(row_number() OVER (PARTITION BY t.mlperf_round ORDER BY t.path)
         AS INTEGER) AS "row",
    'training' AS task,
    t.model,
    NULL AS variant,
    coalesce(t.system_name, t.system_id) AS platform,
    -- what only the vendor page gives (SDK, batch, precision) is kept
    v.sdk_version,
    -- the family the system file's text names (its text where it names
    -- none; a result imported before families has its text here)
    coalesce(t.framework, t.framework_as_printed) AS framework,
    t.framework_version,
    t.dataset,
    v.batch_size,
    v.precision,
    'time_to_train' AS metric,
    t.value,
    t.unit,
    CASE WHEN t.value IS NULL THEN t.status
         ELSE printf('%.2f', t.value) END AS value_as_printed,
    CAST(NULL AS DOUBLE) AS latency_ms,
    v.mlperf_id,
    t.division,
    v.quality_target,
    NULL AS evaluation_metric,
    NULL AS ranking,
    'https://github.com/' || t.repository || '/tree/'
        || coalesce(nullif(t."commit", ''), 'master') || '/' || t.path AS link,
    t.note,
    t.accelerator_vendor AS vendor,
    t.accelerator_generation AS generation,
    t.accelerator,
    nullif(t.accelerators, 0) AS accelerators,
    false AS higher_is_better,
    -- the round's publication date (data/mlperf_rounds.csv), and apart from
    -- it when the copy read here was retrieved
    coalesce(rd.published, t.retrieved) AS source_date,
    CASE WHEN rd.published IS NULL THEN 'retrieved'
         ELSE 'round published' END AS source_date_kind,
    t.retrieved,
    'MLPerf Training v' || t.mlperf_round
        || ' results (MLCommons, official logs)' AS source_title,
    'https://github.com/' || t.repository AS source_links,
    CASE WHEN v.result_id IS NULL THEN 'MLPerf (official logs)'
         ELSE 'MLPerf (official logs) + vendor page' END AS source,
    t.mlperf_round,
    t.submitter,
    t.system_id,
    t.system_name,
    t.mlperf_benchmark,
    t.availability,
    t.category,
    t.accelerator_type,
    t.accelerator_form_factor,
    t.accelerator_memory_gb,
    t.accelerator_model,
    t.status AS mlperf_status,
    t.runs_found,
    t.runs_required,
    t.runs_used,
    t.runs_dropped,
    t.scaling_factor,
    t.repository,
    t."commit",
    t.path,
    v.source_file AS vendor_source_file,
    v.model AS printed_model,
    coalesce(v.framework, t.framework_as_printed) AS printed_framework,
    v.dataset AS printed_dataset,
    v.platform AS printed_platform,
    v.value_as_printed AS vendor_value_as_printed,
    CASE WHEN v.result_id IS NULL THEN NULL
         WHEN printf('%.2f', t.value) = printf('%.2f', v.value) THEN 'agrees'
         ELSE 'differs: the vendor page prints ' || v.value_as_printed
              || ', the logs give ' || printf('%.2f', t.value) END
        AS sources_agree
FROM mlperf_src t
LEFT JOIN vendor_src v ON v.result_id = t.vendor_result_id
LEFT JOIN mlperf_rounds rd
    ON rd.suite = 'training' AND rd.mlperf_round = t.mlperf_round
