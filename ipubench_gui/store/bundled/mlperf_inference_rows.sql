-- An official MLPerf Inference result as a results_v row. Included (by
-- store/bundled/build.py and store/mlperf/mlperf_import.py) where inference_src is defined:
-- rows shaped as data/mlperf_inference.csv. The figure is the log's, read as
-- MLCommons' submission checker reads it (store/mlperf/mlperf_inference.py).
SELECT
    t.result_id,
    t.repository AS source_file,
    'MLPerf Inference v' || t.mlperf_round AS "table",
    CAST(row_number() OVER (PARTITION BY t.mlperf_round ORDER BY t.path)
         AS INTEGER) AS "row",
    'inference' AS task,
    t.model,
    t.variant,
    coalesce(t.system_name, t.system_id) AS platform,
    CAST(NULL AS VARCHAR) AS sdk_version,
    -- the family the system file's text names (its text where it names none)
    coalesce(t.framework, t.framework_as_printed) AS framework,
    t.framework_version,
    t.dataset,
    CAST(NULL AS INTEGER) AS batch_size,
    CAST(NULL AS VARCHAR) AS precision,
    'throughput' AS metric,
    t.value,
    t.unit,
    -- the summary line the figure is (as the submission checker reads it)
    CASE WHEN t.value IS NULL THEN t.status
         WHEN t.inferred THEN 'QPS w/o loadgen overhead : '
             || CAST(t.value AS VARCHAR) || ' (a SingleStream log)'
         WHEN t.scenario = 'Server' THEN 'Scheduled samples per second : '
             || CAST(t.value AS VARCHAR)
         ELSE 'Samples per second : ' || CAST(t.value AS VARCHAR) END
        AS value_as_printed,
    CAST(NULL AS DOUBLE) AS latency_ms,
    CAST(NULL AS VARCHAR) AS mlperf_id,
    t.division,
    CASE WHEN t.mlperf_benchmark = 'bert-99' THEN '99% of FP32 accuracy (F1)'
         WHEN t.mlperf_benchmark = 'bert-99.9' THEN '99.9% of FP32 accuracy (F1)'
         ELSE '99% of FP32 accuracy (top-1)' END AS quality_target,
    NULL AS evaluation_metric,
    NULL AS ranking,
    'https://github.com/' || t.repository || '/tree/'
        || coalesce(nullif(t."commit", ''), 'master') || '/' || t.path AS link,
    t.note,
    t.accelerator_vendor AS vendor,
    t.accelerator_generation AS generation,
    t.accelerator,
    t.accelerators,
    true AS higher_is_better,
    -- the round's publication date (data/mlperf_rounds.csv), and apart from
    -- it when the copy read here was retrieved
    coalesce(rd.published, t.retrieved) AS source_date,
    CASE WHEN rd.published IS NULL THEN 'retrieved'
         ELSE 'round published' END AS source_date_kind,
    t.retrieved,
    'MLPerf Inference v' || t.mlperf_round
        || ' results (MLCommons, official logs)' AS source_title,
    'https://github.com/' || t.repository AS source_links,
    'MLPerf Inference' AS source,
    t.mlperf_round,
    t.submitter,
    t.system_id,
    t.system_name,
    t.mlperf_benchmark,
    t.scenario,
    t.system_type,
    t.inferred AS inferred_offline,
    t.availability,
    t.category,
    t.accelerator_type,
    t.accelerator_form_factor,
    t.accelerator_memory_gb,
    t.accelerator_model,
    t.status AS mlperf_status,
    t.repository,
    t."commit",
    t.path,
    -- the words *_as_printed keep (store/bundled/names.official_names): the
    -- system file's framework text; the other names are the file's own
    CAST(NULL AS VARCHAR) AS printed_model,
    t.framework_as_printed AS printed_framework,
    CAST(NULL AS VARCHAR) AS printed_dataset,
    CAST(NULL AS VARCHAR) AS printed_platform
FROM inference_src t
LEFT JOIN mlperf_rounds rd
    ON rd.suite = 'inference' AND rd.mlperf_round = t.mlperf_round
