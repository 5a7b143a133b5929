{{/*
The service's own ServiceAccount, when serviceAccount.create: no API token is mounted (the services never
call the Kubernetes API), so a compromised pod holds no cluster credential. Reads: serviceAccount.create,
.name, .annotations (e.g. a cloud IAM role binding).
*/}}
{{- define "ledgerline-lib.serviceAccount" -}}
{{- if .Values.serviceAccount.create -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "ledgerline-lib.serviceAccountName" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
  {{- with .Values.serviceAccount.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
automountServiceAccountToken: false
{{- end -}}
{{- end -}}

{{/* serviceAccount.name, else <fullname> when the chart creates it, else the namespace's `default`. */}}
{{- define "ledgerline-lib.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "ledgerline-lib.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}
