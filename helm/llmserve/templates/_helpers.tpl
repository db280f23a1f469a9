{{/* Names and labels shared by every object. */}}
{{- define "llmserve.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "llmserve.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "llmserve.selectorLabels" -}}
app.kubernetes.io/name: {{ include "llmserve.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "llmserve.labels" -}}
{{ include "llmserve.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* The image variant built for the accelerator: rocm, cuda or cpu. */}}
{{- define "llmserve.variant" -}}
{{- if eq .Values.accelerator.type "amd" -}}rocm
{{- else if eq .Values.accelerator.type "nvidia" -}}cuda
{{- else -}}cpu
{{- end -}}
{{- end -}}

{{- define "llmserve.image" -}}
{{- $tag := .Values.image.tag | default (printf "%s-%s" .Chart.AppVersion (include "llmserve.variant" .)) -}}
{{- printf "%s:%s" .Values.image.repository $tag -}}
{{- end -}}

{{/* The extended resource a GPU replica asks for, empty for CPU-only. */}}
{{- define "llmserve.gpuResource" -}}
{{- if eq .Values.accelerator.type "amd" -}}amd.com/gpu
{{- else if eq .Values.accelerator.type "nvidia" -}}nvidia.com/gpu
{{- end -}}
{{- end -}}

{{/*
GPUs a pod asks for: accelerator.count, or more when a model's devices name a higher index (devices
[0, 3] needs 4) or, with devices all or none, its tensorParallelSize spans more GPUs than that. A
model whose GPUs do not cut into replicas of its tensorParallelSize fails the render, as the
service would refuse it at load.
*/}}
{{- define "llmserve.gpuCount" -}}
{{- $n := int .Values.accelerator.count -}}
{{- range .Values.models -}}
{{- $tp := int (.tensorParallelSize | default 1) -}}
{{- if kindIs "slice" .devices -}}
{{- range .devices -}}
{{- if ge (int .) $n -}}{{- $n = add1 (int .) -}}{{- end -}}
{{- end -}}
{{- if mod (len .devices) $tp -}}
{{- fail (printf "model %s: devices %v name %d GPU(s), which do not cut into replicas of tensorParallelSize %d" .id .devices (len .devices) $tp) -}}
{{- end -}}
{{- else if gt $tp $n -}}
{{- $n = $tp -}}
{{- end -}}
{{- end -}}
{{- range .Values.models -}}
{{- $tp := int (.tensorParallelSize | default 1) -}}
{{- if and (eq (toString .devices) "all") (mod $n $tp) -}}
{{- fail (printf "model %s: devices all gives the pod's %d GPU(s), which do not cut into replicas of tensorParallelSize %d" .id $n $tp) -}}
{{- end -}}
{{- end -}}
{{- $n -}}
{{- end -}}

{{- define "llmserve.modelsClaim" -}}
{{- .Values.modelStorage.pvc.existingClaim | default (printf "%s-models" (include "llmserve.fullname" .)) -}}
{{- end -}}
