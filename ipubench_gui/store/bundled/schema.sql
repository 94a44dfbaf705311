-- Schema of the results store. The loader reads each table's column types from
-- here (DESCRIBE), so this file is the single source of truth for types.

CREATE TABLE sources (
    source_file VARCHAR PRIMARY KEY,
    title       VARCHAR NOT NULL,
    kind        VARCHAR NOT NULL,
    date        DATE,
    date_kind   VARCHAR NOT NULL,
    links       VARCHAR
);

CREATE TABLE platforms (
    platform     VARCHAR PRIMARY KEY,
    vendor       VARCHAR NOT NULL,
    generation   VARCHAR NOT NULL,
    accelerator  VARCHAR NOT NULL,
    accelerators INTEGER,
    system_type  VARCHAR NOT NULL,
    note         VARCHAR
);

CREATE TABLE metrics (
    metric           VARCHAR PRIMARY KEY,
    label            VARCHAR NOT NULL,
    higher_is_better BOOLEAN NOT NULL,
    default_unit     VARCHAR NOT NULL,
    per_chip         VARCHAR,
    noun             VARCHAR NOT NULL,
    task             VARCHAR
);

CREATE TABLE results (
    result_id         VARCHAR PRIMARY KEY,
    source_file       VARCHAR NOT NULL,
    "table"           VARCHAR NOT NULL,
    "row"             INTEGER NOT NULL,
    task              VARCHAR NOT NULL,
    model             VARCHAR NOT NULL,
    variant           VARCHAR,
    platform          VARCHAR NOT NULL,
    sdk_version       VARCHAR,
    framework         VARCHAR,
    dataset           VARCHAR,
    batch_size        INTEGER,
    precision         VARCHAR,
    metric            VARCHAR NOT NULL,
    value             DOUBLE NOT NULL,
    unit              VARCHAR NOT NULL,
    value_as_printed  VARCHAR NOT NULL,
    latency_ms        DOUBLE,
    mlperf_id         VARCHAR,
    division          VARCHAR,
    quality_target    VARCHAR,
    evaluation_metric VARCHAR,
    ranking           VARCHAR,
    link              VARCHAR,
    note              VARCHAR
);

CREATE TABLE comparisons (
    comparison_id    VARCHAR PRIMARY KEY,
    source_file      VARCHAR NOT NULL,
    chart            VARCHAR NOT NULL,
    model            VARCHAR NOT NULL,
    task             VARCHAR NOT NULL,
    variant          VARCHAR,
    metric           VARCHAR NOT NULL,
    ratio_stated     DOUBLE,
    ratio_qualifier  VARCHAR,
    ratio_as_printed VARCHAR,
    also_stated      VARCHAR,
    ipu_system       VARCHAR NOT NULL,
    ipu_framework    VARCHAR,
    ipu_precision    VARCHAR,
    ipu_batch        VARCHAR,
    ipu_sdk          VARCHAR,
    gpu_system       VARCHAR NOT NULL,
    gpu_framework    VARCHAR,
    gpu_precision    VARCHAR,
    gpu_batch        VARCHAR,
    data             VARCHAR,
    dataset          VARCHAR,
    ipu_value        DOUBLE,
    ipu_value_alt    DOUBLE,
    gpu_value        DOUBLE,
    value_unit       VARCHAR,
    values_note      VARCHAR,
    values_uncertain BOOLEAN,
    gpu_source       VARCHAR,
    gpu_source_url   VARCHAR,
    assumptions      VARCHAR,
    caveats          VARCHAR
);

CREATE TABLE claims (
    claim_id        VARCHAR PRIMARY KEY,
    source_file     VARCHAR NOT NULL,
    date            DATE,
    subject         VARCHAR NOT NULL,
    model           VARCHAR,
    metric          VARCHAR,
    system          VARCHAR,
    versus          VARCHAR,
    stated_change   DOUBLE,
    change_unit     VARCHAR,
    qualifier       VARCHAR,
    stated_as_printed VARCHAR,
    mlperf_ids      VARCHAR,
    figures_in_text BOOLEAN NOT NULL,
    checked_by      VARCHAR NOT NULL,
    mlperf_rounds   VARCHAR,
    related         VARCHAR,
    note            VARCHAR
);

-- The other vendor's own published figures (NVIDIA A100), one row per
-- published table row, with where each was read (data/README.md).
CREATE TABLE gpu_reference (
    result_id          VARCHAR PRIMARY KEY,
    source_file        VARCHAR NOT NULL,
    comparison_ids     VARCHAR NOT NULL,
    role               VARCHAR NOT NULL,
    task               VARCHAR NOT NULL,
    model              VARCHAR NOT NULL,
    variant            VARCHAR,
    dataset            VARCHAR,
    measure            VARCHAR NOT NULL,
    gpu                VARCHAR NOT NULL,
    platform           VARCHAR NOT NULL,
    gpu_count          INTEGER NOT NULL,
    framework          VARCHAR,
    precision          VARCHAR,
    batch_size         INTEGER,
    batch_as_printed   VARCHAR,
    metric             VARCHAR NOT NULL,
    value              DOUBLE,
    unit               VARCHAR NOT NULL,
    value_as_printed   VARCHAR,
    unit_as_printed    VARCHAR NOT NULL,
    latency_ms         DOUBLE,
    latency_as_printed VARCHAR,
    source_repo        VARCHAR NOT NULL,
    "commit"           VARCHAR,
    path               VARCHAR,
    table_caption      VARCHAR NOT NULL,
    source_date        DATE,
    link               VARCHAR NOT NULL
);

CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL);

-- MLPerf Training results built from the official logs (data/README.md).
CREATE TABLE mlperf_training (
    result_id         VARCHAR PRIMARY KEY,
    mlperf_round      VARCHAR NOT NULL,
    submitter         VARCHAR NOT NULL,
    system_id         VARCHAR NOT NULL,
    mlperf_benchmark  VARCHAR NOT NULL,
    model             VARCHAR NOT NULL,
    dataset           VARCHAR,
    division          VARCHAR,
    availability      VARCHAR,
    category          VARCHAR,
    system_name       VARCHAR,
    accelerator_model VARCHAR,
    accelerator       VARCHAR,
    accelerator_vendor VARCHAR,
    accelerator_generation VARCHAR,
    accelerator_type  VARCHAR,
    accelerator_form_factor VARCHAR,
    accelerator_memory_gb INTEGER,
    accelerators      INTEGER,
    nodes             INTEGER,
    host_cpu          VARCHAR,
    host_cpus         INTEGER,
    framework         VARCHAR,
    framework_version VARCHAR,
    framework_as_printed VARCHAR,
    value             DOUBLE,
    unit              VARCHAR NOT NULL,
    status            VARCHAR NOT NULL,
    runs_found        INTEGER NOT NULL,
    runs_required     INTEGER,
    runs_used         INTEGER NOT NULL,
    runs_dropped      INTEGER NOT NULL,
    scaling_factor    DOUBLE NOT NULL,
    note              VARCHAR,
    repository        VARCHAR NOT NULL,
    "commit"          VARCHAR,
    path              VARCHAR NOT NULL,
    retrieved         DATE,
    vendor_result_id  VARCHAR
);
