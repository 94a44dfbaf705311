-- Derived tables, created after the data is loaded. The store is read-only
-- once built, so derived columns are materialised here rather than recomputed
-- (joins and regexes) by every query the app runs.

-- The MLPerf repositories are sources too (retrieved, not published, dates).
INSERT INTO sources
SELECT DISTINCT repository, 'MLPerf Training v' || mlperf_round
    || ' results (MLCommons, official logs)', 'results repository', retrieved,
    'retrieved', 'https://github.com/' || repository
FROM mlperf_training;
INSERT INTO sources
SELECT DISTINCT repository, 'MLPerf Inference v' || mlperf_round
    || ' results (MLCommons, official logs)', 'results repository', retrieved,
    'retrieved', 'https://github.com/' || repository
FROM mlperf_inference;

-- One row per published figure, with everything a filter, chart or comparison needs:
-- every data source's rows (store/bundled/sources.py: the vendor's own tables, the other
-- vendor's (NVIDIA's) published figures of data/gpu_reference.csv that are
-- measurements), then every official MLPerf Training result. One result, one row: a vendor-page
-- figure that cites an MLPerf result (the seed's MLPerf v2.0 table) shares the
-- official result's row; the build script matched them
-- (mlperf_training.vendor_result_id, see store/mlperf/mlperf_build.py).
-- model, framework, dataset, platform and unit hold canonical names (the entity
-- tables; the {...} parts are filled in by store/bundled/names.py, one text for these
-- rows and imported ones); *_as_printed keep the source's spelling. unit_family
-- says what a figure counts: "images/s" for a ResNet-50 throughput printed in
-- items/s, "time" for times; other_names holds every spelling of the model and
-- dataset; search_text, what the text search looks in (store/bundled/names.SEARCH_TEXT).
CREATE TABLE results_v AS
WITH rows AS (
    -- every data source's rows (store/bundled/sources.py: each entry's ``rows``)
    {SOURCE_ROWS}
),
vendor_rows AS (
    SELECT
        r.* EXCLUDE (g_date, source_repo, source),
        p.vendor,
        p.generation,
        p.accelerator,
        p.accelerators,
        m.higher_is_better,
        coalesce(r.g_date, s.date) AS source_date,
        CASE WHEN r.g_date IS NOT NULL THEN 'commit or post date'
             ELSE s.date_kind END AS source_date_kind,
        s.title || coalesce(' — ' || r.source_repo, '') AS source_title,
        s.links AS source_links,
        r.source
    FROM rows r
    JOIN platforms p USING (platform)
    JOIN metrics m USING (metric)
    JOIN sources s USING (source_file)
),
mlperf_src AS (SELECT * FROM mlperf_training),
vendor_src AS (SELECT * FROM results),
inference_src AS (SELECT * FROM mlperf_inference),
official_rows AS (
    SELECT *, 1000 AS part FROM (  -- after every source's own rows
-- @include mlperf_rows.sql
    )
    UNION ALL BY NAME
    SELECT *, 1001 AS part FROM (
-- @include mlperf_inference_rows.sql
    )
),
both_parts AS (
    SELECT * FROM vendor_rows UNION ALL BY NAME SELECT * FROM official_rows
)
SELECT
    row_number() OVER (ORDER BY r.part, r.source_file, r."table", r."row", r.metric)
        AS ord,
    r.* {OFFICIAL_NAMES},
    CASE WHEN r.metric = 'throughput' THEN r.value END AS throughput,
    CASE WHEN r.metric = 'throughput' THEN r.value / r.accelerators END
        AS throughput_per_accelerator,
    TRY_CAST(split_part(r.precision, '.', 1) AS INTEGER) AS activation_bits,
    TRY_CAST(split_part(r.precision, '.', 2) AS INTEGER) AS weight_bits,
    -- "SDK 2.4.0" -> 20400, "SDK 3.1" -> 30100: sorts numerically, not as text.
    TRY_CAST(regexp_extract(r.sdk_version, '(\d+)\.(\d+)', 1) AS INTEGER) * 10000
        + TRY_CAST(regexp_extract(r.sdk_version, '(\d+)\.(\d+)', 2) AS INTEGER) * 100
        + coalesce(TRY_CAST(regexp_extract(r.sdk_version, '\d+\.\d+\.(\d+)', 1)
                            AS INTEGER), 0) AS sdk_sort,
    {UNIT_FAMILY_AND_OTHER_NAMES}
FROM both_parts r
{NAME_JOINS}
ORDER BY ord;

-- Throughput against system size within one configuration family: the
-- smallest system of the family is the baseline, efficiency is per-accelerator
-- throughput relative to it.
CREATE VIEW scaling_v AS
WITH fam AS (
    SELECT *,
        min(accelerators) OVER w AS base_accelerators,
        arg_min(throughput, accelerators) OVER w AS base_throughput,
        count(*) OVER w AS family_size
    FROM results_v
    WHERE metric = 'throughput' AND task = 'training'
    WINDOW w AS (PARTITION BY model, coalesce(variant, ''), framework,
                 generation, coalesce(precision, ''))
)
SELECT result_id, model, variant, framework, generation, platform, sdk_version,
       batch_size, accelerators, throughput, base_accelerators, base_throughput,
       throughput / base_throughput AS speedup,
       (throughput / accelerators) / (base_throughput / base_accelerators)
           AS scaling_efficiency
FROM fam
WHERE family_size > 1;

-- Facet counts without scanning every row: one row per distinct combination
-- of the facet columns, the text-searched columns and batch size, with its
-- row count. Any filter on these columns can be answered here (sum(n)); only
-- ranges on continuous figures (throughput, latency) need results_v itself.
CREATE TABLE facet_cube AS
SELECT {CUBE_COLUMNS}, count(*) AS n
FROM results_v
GROUP BY ALL;
