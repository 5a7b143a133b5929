{{/*
The migration Job: a Helm hook that runs before the release's resources are installed or upgraded,
once per release, never per replica. Helm waits for it; if it fails, the upgrade stops and the running
pods keep the old version. It uses the release's image, environment and secrets with the command
`node /app/services/<chart>/dist/migrate.js` (migration.command overrides it), plus one more Secret
that only this Job mounts: migration.secret.name (default <fullname>-migrate-env) with the database
owner's URL (<SERVICE>_DATABASE_ADMIN_URL), so the running pods never hold owner credentials.
Reads: migration.enabled, .command, .backoffLimit, .activeDeadlineSeconds, .resources, .secret.name,
.secret.optional, and what the Deployment reads for image, env and secrets.

Its pods carry their own app.kubernetes.io/name (<name>-migrate) so the Service, the PDB and the
ServiceMonitor never select them.

It runs as its own ServiceAccount (<fullname>-migrate, no API token), a hook created just before it: a
pre-install hook runs before the release's own ServiceAccount exists, and the owner's credentials (e.g. a
cloud IAM role for the database owner, migration.serviceAccount.annotations) belong to this account only,
never to the running pods'.
*/}}
{{- define "ledgerline-lib.migrationJob" -}}
{{- if .Values.migration.enabled -}}
{{- $command := .Values.migration.command | default (list "node" (printf "/app/services/%s/dist/migrate.js" .Chart.Name)) -}}
{{- $account := printf "%s-migrate" (include "ledgerline-lib.fullname" . | trunc 55 | trimSuffix "-") -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ $account }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
    app.kubernetes.io/component: migration
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-weight": "-1"
    "helm.sh/hook-delete-policy": before-hook-creation
    {{- with (.Values.migration.serviceAccount | default dict).annotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
automountServiceAccountToken: false
---
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "ledgerline-lib.fullname" . | trunc 55 | trimSuffix "-" }}-migrate
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
    app.kubernetes.io/component: migration
  annotations:
    "helm.sh/hook": pre-install,pre-upgrade
    "helm.sh/hook-weight": "0"
    "helm.sh/hook-delete-policy": before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ .Values.migration.backoffLimit | default 1 }}
  activeDeadlineSeconds: {{ .Values.migration.activeDeadlineSeconds | default 600 }}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: {{ include "ledgerline-lib.name" . }}-migrate
        app.kubernetes.io/instance: {{ .Release.Name }}
        app.kubernetes.io/component: migration
        app.kubernetes.io/part-of: ledgerline
    spec:
      restartPolicy: Never
      serviceAccountName: {{ $account }}
      automountServiceAccountToken: false
      {{- include "ledgerline-lib.imagePullSecrets" . | nindent 6 }}
      securityContext:
        {{- include "ledgerline-lib.podSecurityContext" . | nindent 8 }}
      containers:
        - name: migrate
          image: {{ include "ledgerline-lib.image" . | quote }}
          imagePullPolicy: {{ .Values.image.pullPolicy | default "IfNotPresent" }}
          command:
            {{- toYaml $command | nindent 12 }}
          env:
            {{- include "ledgerline-lib.env" . | nindent 12 }}
          envFrom:
            {{- include "ledgerline-lib.envFrom" . | nindent 12 }}
            # Last, so its keys win over the service's Secret.
            - secretRef:
                name: {{ .Values.migration.secret.name | default (printf "%s-migrate-env" (include "ledgerline-lib.fullname" .)) }}
                optional: {{ .Values.migration.secret.optional | default false }}
          resources:
            {{- toYaml (.Values.migration.resources | default .Values.resources | default dict) | nindent 12 }}
          securityContext:
            {{- include "ledgerline-lib.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
{{- end -}}
{{- end -}}
