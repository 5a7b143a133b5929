{{/*
Helpers shared by every Ledgerline service chart. Each named template takes the calling chart's root
context (`.`), so `.Chart` and `.Values` are the service chart's own. The values each template reads are
listed in its comment; charts/identity/values.yaml declares and explains every one of them (see also
deploy/README.md).
*/}}

{{/* Chart name, or nameOverride. */}}
{{- define "ledgerline-lib.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
<release>-<chart>, or fullnameOverride; the release name alone when it is the chart's name. (Not when it merely
contains it: in the release `ledgerline` the ledger chart would otherwise be named `ledgerline`, not
`ledgerline-ledger`, the host its callers' LEDGER_URL names.)
*/}}
{{- define "ledgerline-lib.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if eq $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Labels selecting the service's pods. Never add anything that changes between releases. */}}
{{- define "ledgerline-lib.selectorLabels" -}}
app.kubernetes.io/name: {{ include "ledgerline-lib.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "ledgerline-lib.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "ledgerline-lib.selectorLabels" . }}
app.kubernetes.io/version: {{ include "ledgerline-lib.tag" . | trunc 63 | trimSuffix "-" | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: ledgerline
{{- end -}}

{{/* Image tag: image.tag, else global.imageTag, else the chart's appVersion. */}}
{{- define "ledgerline-lib.tag" -}}
{{- $global := .Values.global | default dict -}}
{{- .Values.image.tag | default $global.imageTag | default .Chart.AppVersion | toString -}}
{{- end -}}

{{/* image.repository:tag, prefixed by image.registry (or global.imageRegistry) when set. */}}
{{- define "ledgerline-lib.image" -}}
{{- $global := .Values.global | default dict -}}
{{- $registry := .Values.image.registry | default $global.imageRegistry -}}
{{- $image := printf "%s:%s" .Values.image.repository (include "ledgerline-lib.tag" .) -}}
{{- if $registry -}}
{{- printf "%s/%s" (trimSuffix "/" $registry) $image -}}
{{- else -}}
{{- $image -}}
{{- end -}}
{{- end -}}

{{/* The port variable the service reads: portEnv, else <CHART NAME>_PORT (identity → IDENTITY_PORT). */}}
{{- define "ledgerline-lib.portEnv" -}}
{{- .Values.portEnv | default (printf "%s_PORT" (.Chart.Name | upper | replace "-" "_")) -}}
{{- end -}}

{{/*
Container environment. Precedence: the fixed entries (HOST, <SERVICE>_PORT, OTEL_SERVICE_NAME) over
`env` over `global.env`. Each value goes through `tpl` (so it may name .Release.Name) and is passed as a
string. `secretEnv` maps a variable to one key of a Secret.
*/}}
{{- define "ledgerline-lib.env" -}}
{{- $global := .Values.global | default dict -}}
{{- $env := merge (dict) (.Values.env | default dict) ($global.env | default dict) -}}
{{- $_ := set $env "HOST" "0.0.0.0" -}}
{{- $_ := set $env (include "ledgerline-lib.portEnv" .) (toString .Values.port) -}}
{{- $_ := set $env "OTEL_SERVICE_NAME" (include "ledgerline-lib.name" .) -}}
{{- range $name, $value := $env }}
- name: {{ $name }}
  value: {{ tpl (toString $value) $ | quote }}
{{- end }}
{{- range $name, $ref := (.Values.secretEnv | default dict) }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ tpl $ref.secret $ }}
      key: {{ $ref.key }}
{{- end }}
{{- end -}}

{{/*
Secrets whose every key becomes a variable: the service's own (secret.name, default <fullname>-env),
then global.secrets (shared ones). They are created outside the chart (External Secrets, sealed
secrets, or kubectl) so that they exist before the pre-install migration hook runs.
*/}}
{{- define "ledgerline-lib.envFrom" -}}
{{- $global := .Values.global | default dict -}}
{{- $secret := .Values.secret | default dict -}}
- secretRef:
    name: {{ $secret.name | default (printf "%s-env" (include "ledgerline-lib.fullname" .)) }}
    optional: {{ $secret.optional | default false }}
{{- range ($global.secrets | default list) }}
- secretRef:
    name: {{ . }}
{{- end }}
{{- end -}}

{{- define "ledgerline-lib.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "ledgerline-lib.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: ["ALL"]
{{- end -}}

{{/* Image pull secrets from global.imagePullSecrets (a list of names). */}}
{{- define "ledgerline-lib.imagePullSecrets" -}}
{{- $global := .Values.global | default dict -}}
{{- with $global.imagePullSecrets -}}
imagePullSecrets:
{{- range . }}
  - name: {{ . }}
{{- end }}
{{- end -}}
{{- end -}}
